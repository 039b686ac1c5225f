/// One MCP server run as a child process (stdio), as a config's `mcp_servers` entry gives it:
/// `{"name": {"command": …, "args": […], "env": {…}, "timeout": seconds}}`.
struct MCPServerEntry: Sendable, Equatable {
    /// The name the config gives it; its tools are offered as `name__tool`.
    var name: String
    /// The program: a path, or a name looked for in `PATH`.
    var command: String
    var arguments: [String] = []
    /// Variables set for it, over this process's environment.
    var environment: [String: String] = [:]
    /// Seconds a tool call may take.
    var callTimeout: Double = 60
    /// Seconds the server may take to start and answer `initialize` or `tools/list`.
    var startTimeout: Double = 30
}

/// What went wrong with an MCP server or one of its requests, in words for the model or for
/// the person's one line (the server's own text already cut and made safe).
struct MCPFailure: Error, Sendable, Equatable {
    var message: String

    init(_ message: String) {
        self.message = message
    }
}
