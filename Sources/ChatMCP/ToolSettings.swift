import ChatDomain

/// What the settings say about tools from MCP servers: which configured servers a run uses
/// (`tools`, `-T`, `--no-tools`), which tools run without asking (`auto_approve`, `--yes-tools`),
/// and the loop's limits. With no server chosen, nothing of MCP is built or started.
public struct ToolSettings: Sendable {
    /// The servers whose tools the run offers, as `tools` or `-T` named them; none: tools are off.
    public var servers: [String]?
    /// Rounds of tool calls before the person is asked whether to go on (`max_tool_rounds`).
    public var roundLimit = 10
    /// The most bytes of one result sent to the model (`max_tool_result_bytes`).
    public var maxResultBytes = 100_000
    /// Every server of the config's `mcp_servers`, by name, sorted.
    public var configured: [String] = []
    /// The tools that run without asking, by server.
    public var approved: [String: ToolApproval] = [:]
    /// Problems with the entries' `auto_approve` (said on stderr; the rest goes on).
    public var problems: [ToolServerProblem] = []
    /// The config's `mcp_servers`, as written; read into entries only when tools are used.
    package var serversValue: JSONValue?
    /// The environment `${VAR}` in an entry is read from.
    package var environment: [String: String] = [:]

    /// `--no-tools`: no tools this run, not even ones the REPL's `/tools` would turn on.
    public var refused = false

    /// Whether the run offers tools.
    public var isOn: Bool { !(servers ?? []).isEmpty }

    /// `SERVER.TOOL` as its server and tool; `SERVER` alone with no tool. A server's name may
    /// hold dots: the longest `configured` name the item is, or starts with before a dot, is the
    /// server; else the server is what comes before the first dot.
    package static func split(_ item: String, configured: [String] = []) -> (server: String, tool: String?) {
        if configured.contains(item) { return (item, nil) }
        if let server = configured.filter({ item.hasPrefix($0 + ".") }).max(by: { $0.count < $1.count }) {
            let tool = String(item.dropFirst(server.count + 1))
            return (server, tool.isEmpty ? nil : tool)
        }
        guard let dot = item.firstIndex(of: ".") else { return (item, nil) }
        let tool = String(item[item.index(after: dot)...])
        return (String(item[..<dot]), tool.isEmpty ? nil : tool)
    }

    /// No server chosen: tools are off.
    public init() {}
}
