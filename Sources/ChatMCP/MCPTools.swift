import ChatDomain
import ChatSystem

/// The tools of the MCP servers a run uses, as the composition root sees them (`ToolSource`),
/// and their prompts and resources: the servers its `ToolSettings` chose, started when first
/// needed, in the era each speaks (remembered in the data directory's `mcp-eras.json`), each
/// server's stderr in `<data directory>/mcp/<server>.log`; every problem (an entry that cannot
/// be used, a server that cannot start or answer) told to the reporter as it happens, with the
/// server's log file or endpoint; the servers' questions put to the `ServerQuestionAnswerer`.
/// Each tool offered says its origin and whether it runs without asking.
public final class MCPTools: ToolSource {
    private let source: MCPToolSource
    /// The servers used, in the order chosen.
    public let servers: [String]
    private let approved: [String: ToolApproval]

    /// The servers `names` of `settings` (by default the ones it chose). Their logs go to
    /// `<dataDirectory>/mcp/` (none: nowhere, e.g. with history off); the eras found are kept in
    /// `eraDirectory` (whatever the history settings say; none: not kept); HTTP servers are
    /// reached with `network`'s CA file, proxy and diagnostics; `reporter` hears each problem;
    /// `answerer` answers the servers' questions (none: each is declined); only the servers
    /// `inUse` says are in use (by default all) are started, when first needed, and asked.
    public init(
        _ settings: ToolSettings, servers names: [String]? = nil, dataDirectory: DataDirectory?,
        eraDirectory: DataDirectory? = nil, clientVersion: String, network: MCPNetworkSettings = MCPNetworkSettings(),
        reporter: any ToolProblemReporter, answerer: (any ServerQuestionAnswerer)? = nil,
        inUse: @escaping @Sendable (String) -> Bool = { _ in true }
    ) {
        let chosen = names ?? settings.servers ?? []
        let configured = (settings.serversValue?.object ?? [:]).filter { chosen.contains($0.key) }
        let parsed = MCPServerEntry.entries(in: .object(configured), environment: settings.environment)
        let entries = parsed.entries
        // The logs' directory is made when a server first needs it: a run (a REPL) that starts
        // none leaves no trace.
        let directory = { @Sendable () -> String? in
            guard let dataDirectory, dataDirectory.prepare() else { return nil }
            let path = dataDirectory.file("mcp")
            return FileSystem.isDirectory(path, mode: 0o700) || FileSystem.makeDirectory(path, mode: 0o700)
                ? path : nil
        }
        servers = chosen
        approved = settings.approved
        source = MCPToolSource(
            entries, clientVersion: clientVersion, network: network,
            logPath: { name in directory().map { $0 + "/" + Self.fileName(name) + ".log" } },
            report: { problem in reporter.report(problem) }, answerer: answerer,
            memory: MCPEraMemory(directory: eraDirectory), imageLimit: settings.maxResultBytes,
            inUse: inUse)
        for problem in parsed.problems + settings.problems { reporter.report(problem) }
    }

    /// The tools offered, each saying whether it runs without asking (`auto_approve`,
    /// `--yes-tools`): by the server's own name for it, as the approval names it (never by the
    /// offered name, which two tools' names can share once made fit).
    public func tools() async -> [ToolDefinition] {
        await source.tools().map { tool in
            var tool = tool
            tool.isPreApproved = tool.origin.flatMap { approved[$0.server]?.covers($0.tool) } ?? false
            return tool
        }
    }

    public func call(_ call: ToolCall, tool: ToolDefinition) async -> ToolResult {
        await source.call(call, tool: tool)
    }

    public func call(
        _ call: ToolCall, tool: ToolDefinition, progress: @escaping @Sendable (ToolProgress) -> Void
    ) async -> ToolResult {
        await source.call(call, tool: tool, progress: progress)
    }

    /// Each server of the run as it stands (started if it was not): the protocol version spoken
    /// with it and what it declares it offers, or why it could not be used; in the run's order.
    public func statuses() async -> [ToolServerStatus] {
        await source.statuses()
    }

    /// The servers whose tools could not be listed the last time they were asked for (or that
    /// could not be used at all).
    public func unlistedServers() async -> Set<String> {
        await source.unlistedServers()
    }

    /// The prompts of the servers that offer them (`prompts/list`, every page), in the run's order
    /// of servers; a server whose list fails offers none, and the problem is reported.
    public func prompts() async -> [ToolServerPrompt] {
        await source.prompts()
    }

    /// Prompt `name` of `server` with `arguments` filled in (`prompts/get`): its messages, text and
    /// images; the server's questions (elicitation) answered on the way.
    public func prompt(server: String, name: String, arguments: [String: String] = [:]) async
        -> Result<ToolServerPromptMessages, ToolServerFailure>
    {
        await source.prompt(server: server, name: name, arguments: arguments)
    }

    /// The resources `server` offers (`resources/list`, every page); none when it declares none.
    public func resources(server: String) async -> Result<[ToolServerResource], ToolServerFailure> {
        await source.resources(server: server)
    }

    /// The resource templates `server` offers (`resources/templates/list`); none when it declares
    /// no resources.
    public func resourceTemplates(server: String) async -> Result<[ToolServerResourceTemplate], ToolServerFailure> {
        await source.resourceTemplates(server: server)
    }

    /// The resource at `uri` of `server` (`resources/read`): text, images, other bytes by size;
    /// the server's questions answered on the way.
    public func readResource(server: String, uri: String) async -> Result<
        [ToolServerResourceContent], ToolServerFailure
    > {
        await source.readResource(server: server, uri: uri)
    }

    /// Ends every server started, each within 3 s.
    public func close() async {
        await source.close()
    }

    /// As this process ends: ends every server started without waiting for its process to
    /// end; one still running is ended by a watcher that outlives this process, within 3 s, as
    /// `close()` would (docs/tools.md).
    public func closeAtExit() async {
        await source.closeAtExit()
    }

    /// A server's name as a file name: only letters, digits, `-`, `_` and `.` (not leading).
    static func fileName(_ name: String) -> String {
        let safe = name.unicodeScalars.map { scalar -> Character in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "-_.".unicodeScalars.contains(scalar))
                ? Character(scalar) : "_"
        }
        let text = String(safe)
        return text.hasPrefix(".") || text.isEmpty ? "_" + text : text
    }
}
