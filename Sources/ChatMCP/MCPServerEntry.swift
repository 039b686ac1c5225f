import ChatOAuth

/// One MCP server, as a config's `mcp_servers` entry gives it: run as a child process (stdio),
/// `{"name": {"command": …, "args": […], "env": {…}, "timeout": seconds}}`, or reached over
/// Streamable HTTP, `{"name": {"url": …, "headers": {…}, "timeout": seconds}}`; either may pin
/// its MCP version with `"protocol_version"`.
package struct MCPServerEntry: Sendable, Equatable {
    /// The name the config gives it; its tools are offered as `name__tool`.
    var name: String
    /// The program: a path, or a name looked for in `PATH`. Empty for an HTTP server.
    var command: String
    var arguments: [String] = []
    /// Variables set for it, over this process's environment.
    var environment: [String: String] = [:]
    /// Seconds a tool call may take.
    var callTimeout: Double = 60
    /// Seconds the server may take to start and answer `initialize` or `tools/list`.
    var startTimeout: Double = 30
    /// The MCP endpoint of a Streamable HTTP server; nil for a child process.
    var url: String?
    /// Header fields sent with every request to `url` (an `Authorization` token, say). Their
    /// values are secrets: never shown, logged or put in an error.
    var headers: [String: String] = [:]
    /// The MCP version the entry pins (`protocol_version`): spoken from the start, with no
    /// probe of the server's era; nil: found by a probe (and remembered).
    var protocolVersion: String?
    /// `oauth`: the pre-registered client and scopes a sign-in uses (MCPServerEntry+OAuth).
    var oauth: OAuthClientSettings?
    /// `client_metadata_url`: chat's client metadata document, for servers that take one.
    var clientMetadataURL: String?
}

extension MCPServerEntry {
    /// A Streamable HTTP server at `url`.
    init(name: String, url: String, headers: [String: String] = [:], callTimeout: Double = 60) {
        self.init(name: name, command: "", callTimeout: callTimeout, url: url, headers: headers)
    }
}
