import ChatDomain

/// `AnswerRenderer` that writes the answer's text as it arrives, unchanged: text to the output,
/// reasoning dimmed to the notes stream when that is a terminal, retry notes likewise. Stops the
/// answer when the output's reader has gone.
public final class PlainAnswerRenderer: AnswerRenderer {
    private let output: any OutputSink
    private let notes: any OutputSink
    private let notesStyle: TerminalStyle
    public private(set) var printedText = false
    public private(set) var outputClosed = false
    private var endsWithNewline = true
    private var inReasoning = false

    /// Answers go to `output`; reasoning and retry notes to `notes`, styled with `notesStyle`.
    public init(output: any OutputSink, notes: any OutputSink, notesStyle: TerminalStyle) {
        self.output = output
        self.notes = notes
        self.notesStyle = notesStyle
    }

    public func render(_ event: ChatEvent) {
        switch event {
        case .text(let piece):
            guard !outputClosed else { return }
            endReasoning()
            if output.write(piece) {
                printedText = true
                endsWithNewline = piece.hasSuffix("\n")
            } else {
                outputClosed = true
                withUnsafeCurrentTask { $0?.cancel() }
            }
        case .reasoning(let piece):
            // Reasoning is never answer text: it goes to the notes stream, and only for a person.
            guard notes.isTerminal else { return }
            inReasoning = true
            notes.write(notesStyle.dim(piece))
        case .retrying(let attempt, let limit, let delay, let reason):
            // Said on a terminal only: a script sees the final outcome.
            guard notes.isTerminal else { return }
            notes.write(
                notesStyle.note(ErrorWording.retryNote(attempt: attempt, limit: limit, delay: delay, reason: reason))
                    + "\n")
        case .usage, .finished:
            break
        }
    }

    /// Ends the answer's last line so the next output starts on a line of its own.
    public func finish(_ turn: Turn) {
        endReasoning()
        if printedText && !endsWithNewline && !outputClosed {
            output.write("\n")
            endsWithNewline = true
        }
    }

    private func endReasoning() {
        if inReasoning {
            notes.write("\n")
            inReasoning = false
        }
    }
}
