import ChatDomain

/// `AnswerRenderer` that writes the answer's text as it arrives, unchanged: text to the output,
/// reasoning dimmed to the notes stream when that is a terminal, retry notes likewise. Stops the
/// answer when the output's reader has gone.
public final class PlainAnswerRenderer: AnswerRenderer {
    private let output: any OutputSink
    private var notes: AnswerNotes
    public private(set) var printedText = false
    public private(set) var outputClosed = false
    private var endsWithNewline = true

    /// Answers go to `output`; reasoning and retry notes to `notes`, styled with `notesStyle`.
    public init(output: any OutputSink, notes: any OutputSink, notesStyle: TerminalStyle) {
        self.output = output
        self.notes = AnswerNotes(sink: notes, style: notesStyle)
    }

    public func render(_ event: ChatEvent) {
        switch event {
        case .text(let piece):
            guard !outputClosed else { return }
            notes.endReasoning()
            if output.write(piece) {
                printedText = true
                endsWithNewline = piece.hasSuffix("\n")
            } else {
                outputClosed = true
                withUnsafeCurrentTask { $0?.cancel() }
            }
        case .reasoning(let piece):
            notes.reasoning(piece)
        case .retrying(let attempt, let limit, let delay, let reason):
            notes.retrying(attempt: attempt, limit: limit, delay: delay, reason: reason)
        case .usage, .finished:
            break
        }
    }

    /// Ends the answer's last line so the next output starts on a line of its own.
    public func finish(_ turn: Turn) {
        notes.endReasoning()
        if printedText && !endsWithNewline && !outputClosed {
            output.write("\n")
            endsWithNewline = true
        }
    }
}
