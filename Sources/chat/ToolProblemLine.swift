import ChatDomain
import ChatPresentation

/// Says a problem with an MCP server as one line on stderr, naming the server and its log file;
/// the chat goes on.
struct ToolProblemLine: Sendable {
    let stderr: FileDescriptorSink
    let style: TerminalStyle

    init(console: Console) {
        stderr = console.stderr
        style = console.errorStyle
    }

    /// The line for `message` about `server` (empty: the message names it) and its log.
    func report(_ server: String, _ message: String, _ log: String?) {
        let named = server.isEmpty ? message : "MCP server \"\(ServerText.line(server, limit: 60))\": \(message)"
        let logged = log.map { " (its log: \($0))" } ?? ""
        stderr.write(style.warning("chat: warning: " + named + logged) + "\n")
    }
}
