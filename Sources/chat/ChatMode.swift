import ChatDomain

/// A chat: the REPL (`-i`, or no prompt on a terminal), one shell command (`-x`), or one
/// question and its answer, with piped standard input as (or after) the prompt.
struct ChatMode {
    var session: Session
    var options: CommandLineOptions
    var console: Console
    /// Makes the connection to the server in the background, sending nothing.
    var connectAhead: () -> Void = {}

    /// Whether the chat is the REPL (`-i`, or no prompt on a terminal).
    static func isInteractive(_ options: CommandLineOptions) -> Bool {
        !options.execute && (options.interactive || (options.prompt == nil && StandardInput.isTerminal))
    }

    func run() async -> Int32 {
        if Self.isInteractive(options) {
            // (`-i --code` is a usage error already; this is the REPL that no prompt starts.)
            guard !options.codeOnly else {
                return console.fail("--code prints one answer's code; give a prompt: chat --code \"…\"", status: 2)
            }
            guard !options.json else {
                return console.fail("--json writes one answer's events; give a prompt: chat --json \"…\"", status: 2)
            }
            return await InteractiveMode(session: session).run(prompt: options.prompt)
        }
        let stdinAttached = options.files.contains("-")
        // While the writer of piped input is still writing, the connection is made.
        let piped =
            StandardInput.isTerminal || stdinAttached ? nil : await StandardInput.text(whileWaiting: connectAhead)
        let input = [options.prompt, piped].compactMap { $0 }.joined(separator: "\n\n")
        guard !input.isEmpty || !session.attachments.isEmpty else {
            return console.fail(
                options.execute
                    ? "say what the command should do: chat -x \"find files over 100 MB\""
                    : "nothing to send: the piped input was empty; give a prompt (chat \"your question\")",
                status: 2)
        }
        // A role whose prompt holds {{input}} is the message, with the input in its place; the
        // files follow it.
        let message = session.attachments.message(with: session.settings.role?.message(for: input) ?? input)
        if options.execute {
            return await ShellMode(session: session, historyAppend: options.historyAppend).run(request: message)
        }
        return await OneShotMode(session: session).run(message: message)
    }
}
