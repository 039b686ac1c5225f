import ChatDomain
import ChatRendering

/// What an answer says beside its text, on the notes stream and only when that is a terminal (a
/// script sees the final outcome): reasoning, dimmed, and retry notes. Every renderer shows them
/// the same way.
struct AnswerNotes {
    let sink: any OutputSink
    let style: TerminalStyle
    /// Reasoning was written and its line not ended yet.
    private var inReasoning = false

    init(sink: any OutputSink, style: TerminalStyle) {
        self.sink = sink
        self.style = style
    }

    /// Reasoning is never answer text: dimmed, on the notes stream, made safe as rendered text is.
    mutating func reasoning(_ piece: String) {
        guard sink.isTerminal else { return }
        inReasoning = true
        sink.write(style.dim(ControlSanitizer.safe(piece)))
    }

    /// One line: the retry, its delay and the server's reason.
    func retrying(attempt: Int, limit: Int, delay: Double, reason: String) {
        guard sink.isTerminal else { return }
        sink.write(
            style.note(ErrorWording.retryNote(attempt: attempt, limit: limit, delay: delay, reason: reason)) + "\n")
    }

    /// One line, on a terminal or not (as the stop reason's note): parts of the conversation
    /// went to the provider as text.
    mutating func sentAsText(provider: String) {
        endReasoning()
        sink.write(style.warning("chat: note: " + ErrorWording.sentAsTextNote(provider: provider)) + "\n")
    }

    /// One line, on a terminal or not: what the provider changed of the request.
    mutating func notice(_ notice: RequestNotice) {
        endReasoning()
        sink.write(style.note("chat: note: " + ErrorWording.line(for: notice)) + "\n")
    }

    /// One line, on a terminal or not: the answer went to the next profile of `fallback`.
    mutating func fellBack(from: String?, to: String, model: String, after error: ChatError) {
        endReasoning()
        sink.write(
            style.note("chat: note: " + ErrorWording.fallbackNote(from: from, to: to, model: model, after: error))
                + "\n")
    }

    /// The server searches the web for `query`: on a terminal a status line (dimmed), else one
    /// plain line, `search: QUERY`; the query made safe, on one line.
    mutating func searching(_ query: String) {
        endReasoning()
        let safe = ServerText.line(query, limit: 200)
        sink.write((sink.isTerminal ? style.dim("searching the web: " + safe) : "search: " + safe) + "\n")
    }

    /// Ends the reasoning's line, if it is open, before the answer's text or its end.
    mutating func endReasoning() {
        guard inReasoning else { return }
        sink.write("\n")
        inReasoning = false
    }
}
