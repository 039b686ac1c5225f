import ChatDomain
import ChatRendering
import Synchronization

/// `AnswerRenderer` for `chat --code`: writes only the code of the answer's code blocks to the
/// output, a line at a time as it arrives, without the fences; the rest of the answer goes to
/// the notes stream when that is a terminal (for the person watching), and nowhere otherwise.
/// An answer with no code block writes nothing to the output and says so. The sources a web
/// search answer cites are listed on the notes stream, so that the output stays the code alone.
public final class CodeOnlyAnswerRenderer: AnswerRenderer {
    /// Whether code was found, for the caller's exit status.
    public final class Report: Sendable {
        private let found = Mutex(false)

        public init() {}

        /// Whether any answer written so far had a code block.
        public var foundCode: Bool { found.withLock { $0 } }

        func record() { found.withLock { $0 = true } }
    }

    private let output: any OutputSink
    private let notes: any OutputSink
    private let notesStyle: TerminalStyle
    private let report: Report
    private var events: AnswerEventRouter
    private var filter = CodeFenceFilter()
    private var foundCode = false
    public private(set) var printedText = false
    public var outputClosed: Bool { events.outputClosed }

    /// Code to `output`; the rest, notes and errors to `notes`; whether code came, to `report`.
    public init(output: any OutputSink, notes: any OutputSink, notesStyle: TerminalStyle, report: Report) {
        self.output = output
        self.notes = notes
        self.notesStyle = notesStyle
        self.report = report
        // No reasoning: besides the code, only the answer's prose and retry notes are shown.
        events = AnswerEventRouter(notes: AnswerNotes(sink: notes, style: notesStyle), showsReasoning: false)
    }

    public func render(_ event: ChatEvent) {
        events.route(event) { piece in
            printedText = true
            return show(filter.feed(piece), outputOpen: true)
        }
    }

    public func finish(_ turn: Turn) {
        let open = !outputClosed
        if !show(filter.finish(), outputOpen: open) && open { events.readerGone() }
        if printedText, !events.sources.isEmpty { notes.write(events.sources.list(hyperlinks: false)) }
        if turn.answer != nil && !foundCode {
            notes.write(notesStyle.warning("chat: the answer has no code block; nothing was written to stdout") + "\n")
        }
    }

    /// Shows `lines`: code to the output while it is open (a line after its reader went is not
    /// written, nor what follows it), the rest to the notes. Returns whether it is still open.
    private func show(_ lines: [CodeFenceFilter.Line], outputOpen: Bool) -> Bool {
        var open = outputOpen
        for line in lines {
            switch line {
            case .code(let code):
                guard open else { return false }
                open = output.write(code + "\n")
            case .opening(let language):
                foundCode = true
                report.record()
                if notes.isTerminal {
                    notes.write(notesStyle.dim(ControlSanitizer.safe("``` \(language)".trimmingCharacters())) + "\n")
                }
            case .closing:
                if notes.isTerminal { notes.write(notesStyle.dim("```") + "\n") }
            case .prose(let text):
                if notes.isTerminal { notes.write(ControlSanitizer.safe(text) + "\n") }
            }
        }
        return open
    }
}
