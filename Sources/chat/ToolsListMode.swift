import ChatConfig
import ChatDomain
import ChatMCP
import ChatPresentation
import ChatSystem

/// `chat --tools-list`: the tools of the configured MCP servers (those `-T` names, else all),
/// each server started, asked, and ended; a server that cannot be used is one line on stderr.
struct ToolsListMode {
    var options: CommandLineOptions
    var console: Console

    func run() async -> Int32 {
        let settings: ToolSettings
        let keepsLogs: Bool
        var network: MCPNetworkSettings
        do {
            // An HTTPS server is checked with the CA file (and reached through the proxy) a chat
            // run would use.
            (settings, keepsLogs, network) = try SettingsResolver(environment: console.environment).toolsList(
                options.overrides)
        } catch {
            return console.fail(ErrorWording.line(for: error), status: 2)
        }
        guard !settings.configured.isEmpty else {
            return console.fail(
                "no MCP servers are configured: add mcp_servers to the config (docs/tools.md)", status: 1)
        }
        // A server that asks for a sign-in is offered one on the terminal, as in a run.
        network.signIn = console.signIn(terminal: TTYToolConsentTerminal(environment: console.environment))
        let tools = MCPTools(
            settings, dataDirectory: keepsLogs ? DataDirectory(environment: console.environment) : nil,
            clientVersion: ChatVersion.string, network: network, reporter: console.toolProblemLine)
        let entries = await Self.entries(tools)
        await tools.close()
        if options.json {
            ToolListPresenter.json(entries, lines: JSONLines(console.stdout))
        } else {
            let style = TerminalStyle(isTerminal: console.stdout.isTerminal, environment: console.environment)
            ToolListPresenter(output: console.stdout, style: style).show(servers: tools.servers, tools: entries)
        }
        return 0
    }

    /// Each tool of `tools`' servers (started if they were not), with its server.
    static func entries(_ tools: MCPTools) async -> [ToolListPresenter.Entry] {
        await tools.tools().compactMap { tool -> ToolListPresenter.Entry? in
            guard let origin = tool.origin else { return nil }
            return ToolListPresenter.Entry(
                server: origin.server, tool: origin.tool, offeredName: tool.name, description: tool.description)
        }
    }

    /// The configured servers' names, one a line, for the completion scripts.
    static func serverNames(_ options: CommandLineOptions, _ console: Console) -> Int32 {
        let names =
            (try? SettingsResolver(environment: console.environment).toolServerNames(
                configPath: options.overrides.configPath)) ?? []
        console.stdout.write(names.map { $0 + "\n" }.joined())
        return 0
    }
}
