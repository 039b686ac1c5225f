import ChatDomain

/// `AnswerRenderer` that writes the answer's text as it arrives, unchanged: text to the output,
/// reasoning dimmed to the notes stream when that is a terminal, retry notes likewise. Stops the
/// answer when the output's reader has gone. The sources a web search answer cites are listed
/// after it, on the output (they are part of the answer), or on the notes stream with
/// `sourcesToNotes` (an answer that must be exactly JSON, `--schema`).
public final class PlainAnswerRenderer: AnswerRenderer {
    private let output: any OutputSink
    private var events: AnswerEventRouter
    public private(set) var printedText = false
    public var outputClosed: Bool { events.outputClosed }
    private var endsWithNewline = true
    private let notes: any OutputSink
    private let sourcesToNotes: Bool

    /// Answers go to `output`; reasoning (unless `showsReasoning` is false) and retry notes to
    /// `notes`, styled with `notesStyle`.
    public init(
        output: any OutputSink, notes: any OutputSink, notesStyle: TerminalStyle, showsReasoning: Bool = true,
        sourcesToNotes: Bool = false
    ) {
        self.output = output
        self.notes = notes
        self.sourcesToNotes = sourcesToNotes
        events = AnswerEventRouter(notes: AnswerNotes(sink: notes, style: notesStyle), showsReasoning: showsReasoning)
    }

    public func render(_ event: ChatEvent) {
        events.route(event) { piece in
            guard output.write(piece) else { return false }
            printedText = true
            endsWithNewline = piece.hasSuffix("\n")
            return true
        }
    }

    /// Ends the answer's last line so the next output starts on a line of its own.
    public func finish(_ turn: Turn) {
        events.finish()
        if printedText && !endsWithNewline && !outputClosed {
            output.write("\n")
            endsWithNewline = true
        }
        guard printedText, !events.sources.isEmpty else { return }
        if sourcesToNotes {
            notes.write(events.sources.list(hyperlinks: false))
        } else if !outputClosed, !output.write(events.sources.list(hyperlinks: false)) {
            events.readerGone()
        }
    }
}
