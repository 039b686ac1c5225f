import ChatAttachments
import ChatConfig
import ChatHistory
import ChatPresentation
import ChatSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The REPL: `chat` on a terminal, or `chat -i`.
struct InteractiveMode {
    var session: Session

    func run(prompt: String?) async -> Int32 {
        var firstMessage = prompt
        var endAfterFirst = false
        var readsTerminal = StandardInput.isTerminal
        if !readsTerminal && prompt != nil {
            // `cat notes | chat -i "summarise"`: the piped text goes with the first message,
            // then the REPL reads from the terminal, if there is one.
            if let piped = await StandardInput.text() {
                firstMessage = [prompt, piped].compactMap { $0 }.joined(separator: "\n\n")
            }
            readsTerminal = Self.reattachTerminal()
            endAfterFirst = !readsTerminal
        }

        let reader: any LineReader
        let completer = REPLCompleter(
            source: REPLCompletionSource(
                useCase: session.useCase, history: session.history, home: session.environment["HOME"],
                toolServers: session.toolServers),
            roles: session.settings.roles.map(\.name), toolServers: session.tools?.switch.servers ?? [])
        var promptStyle = session.outputStyle
        if readsTerminal, let output = EditLineReader.terminalOutput(),
            let editor = EditLineReader(
                output: output, historyPath: historyPath(), completer: completer.completions(for:))
        {
            reader = editor
            // The prompt goes to the terminal even when stdout does not.
            promptStyle = TerminalStyle(isTerminal: true, environment: session.environment)
        } else {
            reader = PipedLineReader()
        }
        let control = SessionControl()
        var parts = REPL.Parts(
            useCase: session.useCase, reader: reader, output: session.stdout, notes: session.stderr,
            outputStyle: session.outputStyle, notesStyle: session.notesStyle,
            archive: JSONConversationArchive(home: session.environment["HOME"]),
            editor: readsTerminal ? ShellTextEditor(environment: session.environment) : nil,
            control: control, history: session.history, conversationSwitch: session.conversationSwitch,
            makeRenderer: session.makeRenderer, promptStyle: promptStyle, clipboard: session.clipboard,
            roles: session.settings.roles.map(RolePlaceholders(environment: session.environment).fill),
            role: session.settings.role,
            attachmentReader: session.attachmentReader,
            attachments: session.attachments, temporaryDirectory: session.environment["TMPDIR"],
            schemaChecker: ResponseSchemaChecker(), reasoning: session.reasoning, spending: session.spending)
        parts.tools = session.tools
        let server = session.settings.server
        if server.provider == .openAI {
            parts.noWebSearch = ErrorWording.webSearchUnavailable(provider: server.provider.rawValue)
        } else {
            parts.webSearch = server.webSearch
        }
        if session.settings.tools.refused { parts.noTools = "tools are off this run (--no-tools)" }
        let conversation = session.conversation
        let repl = REPL(parts: parts, conversation: conversation)

        let signals = SignalWatcher()
        signals.start { number in
            if number == SIGINT {
                control.interruptAnswer()
            } else {
                control.requestExit(status: SignalWatcher.exitStatus(for: number))
            }
        }
        if readsTerminal {
            session.stderr.write(
                session.notesStyle.note("chat \(ChatVersion.string) · /help for commands · Ctrl-D to leave") + "\n")
        }
        if let id = conversation.id {
            session.stderr.write(
                session.notesStyle.note(
                    "continuing \(id) · \(conversation.title ?? "untitled") · \(Counted.text(conversation.turnCount, "turn"))"
                ) + "\n")
        }
        return await repl.run(firstMessage: firstMessage, endAfterFirst: endAfterFirst)
    }

    /// `input_history` in the data directory (0700; the file is kept 0600).
    private func historyPath() -> String? {
        guard session.settings.history, let directory = DataDirectory(environment: session.environment),
            directory.prepare()
        else { return nil }
        return directory.file("input_history")
    }

    /// Points standard input at the controlling terminal; false when there is none.
    private static func reattachTerminal() -> Bool {
        let fd = open("/dev/tty", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return dup2(fd, 0) == 0 && isatty(0) == 1
    }
}
