import ChatConfig
import ChatDomain
import ChatMCP
import ChatPresentation
import ChatSystem

/// `chat --tools-list`: the tools and prompts of the configured MCP servers (those `-T` names,
/// else all), with the MCP version each speaks, each server started, asked, and ended (not
/// waited for); a server that cannot be used is one line on stderr, and the exit status 1.
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
            eraDirectory: DataDirectory(environment: console.environment), clientVersion: ChatVersion.string,
            network: network, reporter: console.toolProblemLine)
        let entries = await Self.entries(tools)
        let prompts = await tools.prompts()
        let versions = Dictionary(
            uniqueKeysWithValues: await tools.statuses().compactMap { status in
                status.protocolVersion.map { (status.server, $0) }
            })
        let unlisted = await tools.unlistedServers()
        if options.json {
            ToolListPresenter.json(entries, prompts: prompts, lines: JSONLines(console.stdout))
        } else {
            let style = TerminalStyle(isTerminal: console.stdout.isTerminal, environment: console.environment)
            ToolListPresenter(output: console.stdout, style: style).show(
                servers: tools.servers, tools: entries, versions: versions, prompts: prompts)
        }
        // The list is out before the servers are ended, which chat does not wait for.
        await tools.closeAtExit()
        // A server asked for and not listed was said on stderr; the status says it too.
        return unlisted.isEmpty ? 0 : 1
    }

    /// Each tool of `tools`' servers (started if they were not), with its server and the MCP
    /// version spoken with it.
    static func entries(_ tools: MCPTools) async -> [ToolListPresenter.Entry] {
        let offered = await tools.tools()
        let versions = Dictionary(
            uniqueKeysWithValues: await tools.statuses().compactMap { status in
                status.protocolVersion.map { (status.server, $0) }
            })
        return offered.compactMap { tool -> ToolListPresenter.Entry? in
            guard let origin = tool.origin else { return nil }
            return ToolListPresenter.Entry(
                server: origin.server, tool: origin.tool, offeredName: tool.name, description: tool.description,
                protocolVersion: versions[origin.server])
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
