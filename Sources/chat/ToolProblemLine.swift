import ChatDomain
import ChatPresentation

/// Says a problem with an MCP server as one line on stderr, naming the server and its log file;
/// the chat goes on.
struct ToolProblemLine: Sendable {
    let stderr: FileDescriptorSink
    let style: TerminalStyle
    /// Whether stderr takes escape sequences (a terminal, unless `TERM` is `dumb`).
    let takesEscapes: Bool

    init(console: Console) {
        stderr = console.stderr
        style = console.errorStyle
        takesEscapes = TerminalStyle.takesEscapes(
            isTerminal: console.stderr.isTerminal, environment: console.environment)
    }

    /// The line for `message` about `server` (empty: the message names it) and its log. On a
    /// terminal it first clears the line it starts on: a problem found during a call (the server
    /// gone) comes while the call's live line (`ToolCallReporter`) is shown, which the call's
    /// last line then replaces below it.
    func report(_ server: String, _ message: String, _ log: String?) {
        let named = server.isEmpty ? message : "MCP server \"\(ServerText.line(server, limit: 60))\": \(message)"
        let logged = log.map { " (its log: \($0))" } ?? ""
        let clear = takesEscapes ? "\r\u{1B}[K" : ""
        stderr.write(clear + style.warning("chat: warning: " + named + logged) + "\n")
    }
}
