import ChatDomain
import ChatPresentation
import ChatSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `chat -x "…"`: one command for the person's shell, shown and run only if they say `y`; its
/// exit status is chat's. Piped, the command is printed and never run.
struct ShellMode {
    var session: Session
    /// `--history-append`: add the command that ran to the shell's history file.
    var historyAppend: Bool

    func run(request: ChatMessage) async -> Int32 {
        if session.json { return await events(request: request) }
        // Asked on the terminal only when the command would be shown on it.
        let terminal = session.stdout.isTerminal ? TTYShellTerminal(environment: session.environment) : nil
        let presenter = ShellCommandPresenter(
            useCase: session.useCase, output: session.stdout, notes: session.stderr, outputStyle: session.outputStyle,
            notesStyle: session.notesStyle, terminal: terminal, makeRenderer: session.makeRenderer)
        // Ctrl-C stops the request; while the command runs it is the command's (the shell
        // started it with the signal's default handling), and chat waits for its status.
        let (outcome, _, signal) = await session.turn { await presenter.run(request, in: &$0) }
        switch outcome {
        case .printed:
            return 0
        case .ran(let command, let status):
            if historyAppend { appendToShellHistory(command) }
            return status
        case .declined:
            return 1
        case .interrupted:
            return SignalWatcher.exitStatus(for: signal ?? SIGINT)
        case .failed:
            return 1
        }
    }

    /// `-x --json`: the answer's events as JSON lines, the command among them, never run (as
    /// when piped); no command in the answer is an error, as it is then.
    private func events(request: ChatMessage) async -> Int32 {
        let presenter = OneShotPresenter(
            useCase: session.useCase, notes: session.stderr, notesStyle: session.notesStyle,
            makeRenderer: session.jsonRenderer(reportsCommand: true))
        let (outcome, ended, signal) = await session.turn { await presenter.run(request, in: &$0) }
        switch outcome {
        case .answered:
            guard ShellCommandText.command(in: ended.messages.last?.content ?? "").isEmpty else { return 0 }
            session.stderr.write(session.notesStyle.error("chat: error: the answer held no command") + "\n")
            return 1
        case .outputClosed:
            return 0
        case .failed, .mismatched:
            return 1
        case .interrupted:
            return SignalWatcher.exitStatus(for: signal ?? SIGINT)
        }
    }

    private func appendToShellHistory(_ command: String) {
        let style = session.notesStyle
        guard let file = ShellHistoryFile(environment: session.environment) else {
            let shell = session.environment["SHELL"] ?? "unset"
            session.stderr.write(
                style.warning("chat: warning: --history-append knows bash, zsh and fish; SHELL is \(shell)") + "\n")
            return
        }
        if let reason = file.append(command) {
            session.stderr.write(style.warning("chat: warning: could not add it to \(file.path): \(reason)") + "\n")
        }
    }
}
