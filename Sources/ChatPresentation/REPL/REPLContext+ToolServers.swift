import ChatDomain

/// What the commands about tool servers (`/tools`, `/prompts`, `/resources`…) share.
extension REPLContext {
    /// The run's tools, or nil, having said why there are none.
    var toolServers: REPL.Tools? {
        guard let tools = parts.tools else {
            failure(parts.noTools)
            return nil
        }
        return tools
    }

    /// The servers' prompts and resources, or nil, having said why there are none.
    var toolCatalogue: (any ToolServerCatalogue)? {
        guard let tools = toolServers else { return nil }
        guard let servers = tools.servers else {
            failure("the tool servers' prompts and resources cannot be asked for here")
            return nil
        }
        return servers
    }

    /// Whether `server` is configured and on, having said what to do when it is not.
    func isOn(_ server: String, in tools: REPL.Tools) -> Bool {
        guard tools.switch.servers.contains(server) else {
            failure(
                "no MCP server named \(ServerText.line(server, limit: 60)) in the config; its servers: "
                    + tools.switch.servers.joined(separator: ", "))
            return false
        }
        guard tools.switch.isOn(server) else {
            failure("MCP server \(server) is off: /tools \(server) turns it on")
            return false
        }
        return true
    }
}
