import ChatDomain

/// `/tools [on|off|SERVER]`: list the MCP servers' tools (each server on or off), turn them all
/// on or off, or turn one server's on or off.
struct ToolsCommand: SlashCommand {
    let names = ["tools"]
    let usage = "/tools [on|off|SERVER]"
    let summary = "list the tools, turn them on or off, or one server's (-T)"

    func completions(for argument: String, in context: CompletionContext) -> [String] {
        let word = CompletionContext.lastWord(of: argument)
        return (["on", "off"] + context.toolServers).filter { $0.hasPrefix(word) }
    }

    func run(_ argument: String?, in context: REPLContext) async -> SlashCommandResult {
        guard let tools = context.parts.tools else {
            context.failure("no tools this run: start chat with -T SERVER (the config's mcp_servers)")
            return .proceed
        }
        switch argument {
        case nil:
            await list(tools, in: context)
        case "on", "off":
            tools.switch.setAll(argument == "on")
            context.note("tools: \(argument ?? "")")
        case let server?:
            guard let on = tools.switch.toggle(server) else {
                context.failure(
                    "no MCP server named \(server) in this run; its servers: "
                        + tools.switch.servers.joined(separator: ", "))
                return .proceed
            }
            context.note("tools of \(server): \(on ? "on" : "off")")
        }
        return .proceed
    }

    /// Each server, on or off, with its tools and their descriptions, made safe.
    private func list(_ tools: REPL.Tools, in context: REPLContext) async {
        let listed = await tools.list()
        context.say(
            ToolListPresenter.text(
                servers: tools.switch.servers, tools: listed, style: context.parts.outputStyle,
                state: { tools.switch.isOn($0) ? "on" : "off" }))
    }
}
