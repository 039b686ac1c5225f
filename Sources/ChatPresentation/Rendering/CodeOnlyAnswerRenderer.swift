import ChatDomain
import Synchronization

/// `AnswerRenderer` for `chat --code`: writes only the code of the answer's code blocks to the
/// output, a line at a time as it arrives, without the fences; the rest of the answer goes to
/// the notes stream when that is a terminal (for the person watching), and nowhere otherwise.
/// An answer with no code block writes nothing to the output and says so.
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
    private var filter = CodeFenceFilter()
    private var foundCode = false
    public private(set) var printedText = false
    public private(set) var outputClosed = false

    /// Code to `output`; the rest, notes and errors to `notes`; whether code came, to `report`.
    public init(output: any OutputSink, notes: any OutputSink, notesStyle: TerminalStyle, report: Report) {
        self.output = output
        self.notes = notes
        self.notesStyle = notesStyle
        self.report = report
    }

    public func render(_ event: ChatEvent) {
        switch event {
        case .text(let piece):
            guard !outputClosed else { return }
            printedText = printedText || !piece.isEmpty
            show(filter.feed(piece))
        case .retrying(let attempt, let limit, let delay, let reason):
            AnswerNotes(sink: notes, style: notesStyle).retrying(
                attempt: attempt, limit: limit, delay: delay, reason: reason)
        case .reasoning, .usage, .finished:
            break
        }
    }

    public func finish(_ turn: Turn) {
        show(filter.finish())
        if turn.answer != nil && !foundCode {
            notes.write(notesStyle.warning("chat: the answer has no code block; nothing was written to stdout") + "\n")
        }
    }

    private func show(_ lines: [CodeFenceFilter.Line]) {
        for line in lines {
            switch line {
            case .code(let code):
                guard !outputClosed else { return }
                if !output.write(code + "\n") {
                    outputClosed = true
                    withUnsafeCurrentTask { $0?.cancel() }
                }
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
    }
}
