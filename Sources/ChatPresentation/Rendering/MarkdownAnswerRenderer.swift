import ChatDomain
import ChatRendering
import Dispatch
import Synchronization

/// `AnswerRenderer` that renders the answer's Markdown for a terminal as it streams
/// (`MarkdownStream`): headings, emphasis, code blocks highlighted with their language named,
/// lists, quotes, rules, links, tables aligned once complete; words wrapped at the terminal's
/// width. What is held back because its look depends on what follows is shown as a preview
/// when nothing more has arrived for `holdBack` (100 ms), and replaced when the rest comes.
/// Reasoning and retry notes go to the notes stream as `PlainAnswerRenderer` writes them. The
/// sources a web search answer cites are listed after it, each title a hyperlink to its source
/// where the terminal shows them.
public final class MarkdownAnswerRenderer: AnswerRenderer {
    /// What the stall timer shares with the task that renders.
    private final class Shared: Sendable {
        struct State {
            var stream: MarkdownStream
            var holdingSince: ContinuousClock.Instant?
            var timerArmed = false
            var previewing = false
            var ended = false
            var outputClosed = false

            /// After a piece: starts timing what is held, or stops; returns whether the stall
            /// timer is to be armed now.
            mutating func timeHeld() -> Bool {
                guard stream.holdsHidden else {
                    holdingSince = nil
                    return false
                }
                if holdingSince == nil { holdingSince = .now }
                guard !timerArmed else { return false }
                timerArmed = true
                return true
            }
        }

        let state: Mutex<State>
        let output: any OutputSink
        let holdBack: Duration?

        init(stream: sending MarkdownStream, output: any OutputSink, holdBack: Duration?) {
            state = Mutex(State(stream: stream))
            self.output = output
            self.holdBack = holdBack
        }

        /// Writes `bytes` (under the lock, so writes keep their order); notes if the reader went.
        func write(_ bytes: [UInt8], _ state: inout State) {
            guard !bytes.isEmpty, !state.outputClosed else { return }
            if !bytes.withUnsafeBufferPointer({ output.write(utf8: $0) }) { state.outputClosed = true }
        }

        /// Writes what the stream has rendered since the last call.
        func writeRendered(_ state: inout State) {
            var ok = true
            let closed = state.outputClosed
            state.stream.drainOutput { bytes in
                if !closed { ok = output.write(utf8: bytes) }
            }
            if !ok { state.outputClosed = true }
        }

        /// After a piece: starts timing what is held, or stops.
        func afterPiece(_ state: inout State) {
            guard let holdBack else { return }
            if state.timeHeld() { schedule(after: holdBack) }
        }

        private func schedule(after delay: Duration) {
            let (seconds, attoseconds) = delay.components
            let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in fire() }
        }

        private func fire() {
            state.withLock { state in
                state.timerArmed = false
                guard !state.ended, let since = state.holdingSince, let holdBack else { return }
                let waited = ContinuousClock.now - since
                if waited < holdBack {
                    state.timerArmed = true
                    schedule(after: holdBack - waited)
                    return
                }
                state.holdingSince = nil
                state.previewing = true
                write(state.stream.showHeld(), &state)
            }
        }
    }

    private let shared: Shared
    private var events: AnswerEventRouter
    private let cleanUp: [UInt8]
    private let theme: MarkdownTheme
    private let width: @Sendable () -> Int
    public private(set) var printedText = false
    public var outputClosed: Bool { events.outputClosed }

    /// Answers go to `output` with `theme`, laid out at the width `width` reads; reasoning and
    /// retry notes to `notes`. With `holdBack` nil, held text waits for the next piece however
    /// long it takes (tests drive `showHeld` themselves).
    init(
        output: any OutputSink, notes: any OutputSink, notesStyle: TerminalStyle, theme: MarkdownTheme,
        width: @escaping @Sendable () -> Int, holdBack: Duration? = .milliseconds(100), showsReasoning: Bool = true
    ) {
        shared = Shared(
            stream: MarkdownStream(theme: theme, width: width), output: output,
            holdBack: theme.escapes ? holdBack : nil)
        self.theme = theme
        self.width = width
        events = AnswerEventRouter(notes: AnswerNotes(sink: notes, style: notesStyle), showsReasoning: showsReasoning)
        // No style, no open hyperlink, the cursor shown (whatever an interrupted answer left).
        cleanUp = theme.escapes ? theme.reset + theme.closeLink + Array("\u{1B}[?25h".utf8) : []
    }

    /// Renders for standard output as `environment` describes it: colour unless `NO_COLOR`,
    /// hyperlinks where the terminal is known to show them, the width read from `fd`.
    public convenience init(
        output: any OutputSink, notes: any OutputSink, notesStyle: TerminalStyle, fd: Int32,
        environment: [String: String], showsReasoning: Bool = true
    ) {
        let theme = MarkdownTheme(
            escapes: TerminalStyle.takesEscapes(isTerminal: output.isTerminal, environment: environment),
            colour: !TerminalStyle.noColour(environment), hyperlinks: Hyperlink.supported(environment: environment))
        let fallback = environment["COLUMNS"].flatMap(Int.init).map { $0 > 0 ? $0 : 80 } ?? 80
        self.init(
            output: output, notes: notes, notesStyle: notesStyle, theme: theme,
            width: { TerminalSize.columns(fd: fd) ?? fallback }, showsReasoning: showsReasoning)
    }

    /// The request is on its way: rendering's first-use costs are paid now (`warmUp`), while the
    /// answer is awaited, not between the first piece's arrival and its write.
    public func started(conversation: String?) {
        Self.warmUp(theme: theme, width: width)
    }

    private static let warmedUp = Atomic(false)

    /// Once a process: `renderSample`, so that what a process does at the first piece only (the
    /// runtime builds the metadata of the stream's generic and optional types from their mangled
    /// names, the code is paged in, the width's `ioctl` bound) is done before the answer arrives.
    /// Returns whether this call did it.
    @discardableResult
    static func warmUp(theme: MarkdownTheme, width: @escaping @Sendable () -> Int) -> Bool {
        guard !warmedUp.exchange(true, ordering: .relaxed) else { return false }
        renderSample(theme: theme, width: width)
        return true
    }

    /// Renders a sample through a stream and state of its own and drops them: the first piece's
    /// path (a paragraph's first word, held and shown tentatively), then the rest of its line.
    /// Nothing reaches any output, and no stall timer is started (the state is nobody's).
    static func renderSample(theme: MarkdownTheme, width: @escaping @Sendable () -> Int) {
        var state = Shared.State(stream: MarkdownStream(theme: theme, width: width))
        for piece in ["Warm", "ing up.\n"] {
            state.stream.receive(piece)
            state.stream.drainOutput { _ in }
            _ = state.timeHeld()
        }
        _ = state.stream.finish()
    }

    public func render(_ event: ChatEvent) {
        events.route(event) { piece in
            printedText = true
            let closed = shared.state.withLock { state -> Bool in
                state.stream.receive(piece)
                if state.previewing {
                    // After a stall, what is held stays on the screen until it is decided.
                    if state.stream.holdsHidden {
                        state.stream.showHeldAfterwards()
                    } else {
                        state.previewing = false
                    }
                }
                shared.writeRendered(&state)
                shared.afterPiece(&state)
                return state.outputClosed
            }
            return !closed
        }
    }

    /// Renders what is held, closes what is open, ends the last line; leaves the terminal with
    /// no style, no open hyperlink and the cursor shown, also after Ctrl-C.
    public func finish(_ turn: Turn) {
        events.finish()
        shared.state.withLock { state in
            state.ended = true
            guard printedText else { return }
            var bytes = state.stream.finish()
            bytes += Array(events.sources.list(hyperlinks: theme.escapes && theme.hyperlinks).utf8)
            bytes += cleanUp
            shared.write(bytes, &state)
        }
    }

    /// Shows what is held as a preview now (as the stall timer does).
    func showHeld() {
        shared.state.withLock { state in
            state.previewing = true
            shared.write(state.stream.showHeld(), &state)
        }
    }
}
