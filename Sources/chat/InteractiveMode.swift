import ChatData
import ChatPresentation

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
            if let piped = StandardInput.readAll() {
                firstMessage = [prompt, piped].compactMap { $0 }.joined(separator: "\n\n")
            }
            readsTerminal = Self.reattachTerminal()
            endAfterFirst = !readsTerminal
        }

        let reader: any LineReader
        if readsTerminal, let editor = EditLineReader(historyPath: historyPath(), completions: completions) {
            reader = editor
        } else {
            reader = PipedLineReader()
        }
        let control = SessionControl()
        let parts = REPL.Parts(
            useCase: session.useCase, reader: reader, output: session.stdout, notes: session.stderr,
            outputStyle: session.outputStyle, notesStyle: session.notesStyle,
            archive: JSONConversationArchive(home: session.environment["HOME"]),
            editor: readsTerminal ? ShellTextEditor(environment: session.environment) : nil,
            control: control)
        let repl = REPL(parts: parts, conversation: session.conversation)

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
                session.notesStyle.note("chat \(ChatDataVersion.string) · /help for commands · Ctrl-D to leave") + "\n")
        }
        return await repl.run(firstMessage: firstMessage, endAfterFirst: endAfterFirst)
    }

    private var completions: [String] {
        REPL.commandNames
    }

    /// `$XDG_DATA_HOME/chat/input_history` (else `~/.local/share/chat/`), in a 0700 directory.
    private func historyPath() -> String? {
        let environment = session.environment
        let base: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            base = xdg + "/chat"
        } else if let home = environment["HOME"], !home.isEmpty {
            base = home + "/.local/share/chat"
        } else {
            return nil
        }
        var path = ""
        for part in base.split(separator: "/") {
            path += "/" + part
            mkdir(path, 0o700)
        }
        chmod(base, 0o700)
        return base + "/input_history"
    }

    /// Points standard input at the controlling terminal; false when there is none.
    private static func reattachTerminal() -> Bool {
        let fd = open("/dev/tty", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return dup2(fd, 0) == 0 && isatty(0) == 1
    }
}
