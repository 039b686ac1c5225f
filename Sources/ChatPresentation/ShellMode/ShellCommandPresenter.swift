import ChatDomain
import ChatRendering

/// `chat -x "…"`: asks for one command for the person's shell (the `shell` role sets what is
/// asked), shows it, and on a terminal asks what to do: `y` runs it, `e` edits it first, `d` has
/// the model describe it, `n`, Enter or Ctrl-C leave it. Nothing runs without `y`. With no
/// terminal to ask on, the command is printed and never run.
public struct ShellCommandPresenter {
    private let useCase: any ChatUseCase
    private let output: any OutputSink
    private let notes: any OutputSink
    private let outputStyle: TerminalStyle
    private let notesStyle: TerminalStyle
    private let terminal: (any ShellTerminal)?
    private let makeRenderer: AnswerRendererFactory

    /// The command is shown on `output`; notes and errors go to `notes`; with a `terminal` the
    /// person is asked, without one the command is only printed. Descriptions are shown by a
    /// renderer from `makeRenderer`.
    public init(
        useCase: any ChatUseCase, output: any OutputSink, notes: any OutputSink, outputStyle: TerminalStyle,
        notesStyle: TerminalStyle, terminal: (any ShellTerminal)?, makeRenderer: @escaping AnswerRendererFactory
    ) {
        self.useCase = useCase
        self.output = output
        self.notes = notes
        self.outputStyle = outputStyle
        self.notesStyle = notesStyle
        self.terminal = terminal
        self.makeRenderer = makeRenderer
    }

    /// The question the person is asked.
    public static let question = "run it? [y]es, [e]dit, [d]escribe, [n]o "

    /// Asks for a command for `request` (the person's message) in `conversation` and does what
    /// the person says.
    public func run(_ request: ChatMessage, in conversation: inout Conversation) async -> ShellOutcome {
        let indicator = WaitingIndicator(notes: notes, style: notesStyle)
        let spinner = indicator.start()
        let turn = await useCase.send(request, in: &conversation) { event in
            // An answer that calls tools: the calls are asked about and shown next, not drawn over.
            if case .toolCalls = event { indicator.stop() }
            if case .retrying(let attempt, let limit, let delay, let reason) = event, notes.isTerminal {
                indicator.stop()
                AnswerNotes(sink: notes, style: notesStyle).retrying(
                    attempt: attempt, limit: limit, delay: delay, reason: reason)
            }
        }
        indicator.stop()
        spinner?.cancel()
        guard let answer = turn.answer else {
            let error = turn.error ?? .malformedResponse("no answer")
            if error == .cancelled { return .interrupted }
            fail(ErrorWording.line(for: error))
            return .failed(error)
        }
        var command = ShellCommandText.command(in: answer.content)
        guard !command.isEmpty else {
            fail("the answer held no command")
            return .failed(nil)
        }
        guard let terminal else {
            output.write(command + "\n")
            return .printed(command: command)
        }
        // What `y` runs is what the person saw: a command with control characters (a carriage
        // return or an escape sequence could show one command and hide another) is not offered.
        let shown = ControlSanitizer.safe(command)
        output.write(outputStyle.bold(shown) + "\n")
        guard shown == command else {
            fail("the command holds control characters; it is not offered to run")
            return .failed(nil)
        }
        while true {
            switch await terminal.choose(Self.question) {
            case .run:
                return .ran(command: command, status: await terminal.run(command))
            case .edit:
                guard let edited = await terminal.edit(command) else {
                    note("not run")
                    return .interrupted
                }
                let trimmed = edited.trimmingCharacters()
                if trimmed.isEmpty {
                    note("nothing left to run")
                    return .declined
                }
                command = trimmed
            case .describe:
                guard await describe(command, in: &conversation) else {
                    note("not run")
                    return .interrupted
                }
            case .decline:
                note("not run")
                return .declined
            case .interrupt:
                note("not run")
                return .interrupted
            }
        }
    }

    /// Has the model describe `command` in the same conversation (the `shell` role answers such a
    /// request in prose), shown as it streams; false when it was stopped.
    private func describe(_ command: String, in conversation: inout Conversation) async -> Bool {
        let renderer = makeRenderer()
        let turn = await useCase.send("Describe this command: \(command)", in: &conversation) { renderer.render($0) }
        renderer.finish(turn)
        if turn.answer == nil {
            let error = turn.error ?? .malformedResponse("no answer")
            if error == .cancelled { return false }
            fail(ErrorWording.line(for: error))
        }
        return true
    }

    private func note(_ text: String) {
        notes.write(notesStyle.note("chat: \(text)") + "\n")
    }

    private func fail(_ text: String) {
        notes.write(notesStyle.error("chat: error: \(text)") + "\n")
    }
}
