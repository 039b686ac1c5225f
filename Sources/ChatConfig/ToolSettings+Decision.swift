import ChatDomain
import ChatMCP

extension ToolSettings {
    /// Decides the servers and approvals from the config's `mcp_servers`, the chosen `servers`
    /// (from `source`) and the command line's `--no-tools` and `--yes-tools`; a name that is not
    /// a configured server is an error naming it and the servers there are.
    mutating func decide(
        serversValue: JSONValue?, source: SettingSource?, overrides: SettingOverrides, environment: [String: String]
    ) throws(SettingsError) {
        self.serversValue = serversValue
        self.environment = environment
        configured = serversValue?.object?.keys.sorted() ?? []
        refused = overrides.noTools
        if overrides.noTools { servers = nil }
        for name in servers ?? [] where !configured.contains(name) {
            throw .noToolServer(name: name, source: source ?? .commandLine, known: configured)
        }
        servers = servers.map { names in names.reduce(into: []) { if !$0.contains($1) { $0.append($1) } } }
        var approved: [String: ToolApproval] = [:]
        for item in overrides.yesTools {
            let (server, tool) = Self.split(item, configured: configured)
            guard configured.contains(server) else {
                throw .noToolServer(name: server, source: overrides.yesToolsSource, known: configured)
            }
            let approval = tool.map { ToolApproval.tools([$0]) } ?? .all
            approved[server] = approved[server].map { $0.adding(approval) } ?? approval
        }
        // Also when no server is on at the start: the REPL's `/tools SERVER` may turn one on.
        if !refused, let serversValue {
            let configuredApprovals = MCPServerEntry.approvals(in: serversValue)
            problems = configuredApprovals.problems
            approved.merge(configuredApprovals.approvals) { $0.adding($1) }
        }
        self.approved = approved
    }
}
