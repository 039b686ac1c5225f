import ChatDomain
import ChatSystem
import Synchronization

/// The tools of the MCP servers a run uses, as the composition root sees them (`ToolSource`):
/// the servers its `ToolSettings` chose, started when their tools are first needed, each
/// server's stderr in `<data directory>/mcp/<server>.log`; every problem (an entry that cannot
/// be used, a server that cannot start or answer) handed to `report` once, with the server and
/// its log file; which offered tool is which server's, and whether it runs without asking.
public final class MCPTools: ToolSource {
    private let source: MCPToolSource
    /// The servers used, in the order chosen.
    public let servers: [String]
    private let approved: [String: ToolApproval]
    private let logDirectory: String?
    /// The servers reached over HTTP: they have no log.
    private let httpServers: Set<String>
    private let report: @Sendable (_ server: String, _ message: String, _ log: String?) -> Void
    /// How many of the source's problems were reported.
    private let reported = Mutex(0)
    /// Each offered tool's server and own name, as the source last offered them.
    private let routes = Mutex<[String: (server: String, tool: String)]>([:])

    /// The servers `names` of `settings` (by default the ones it chose). Their logs go to
    /// `<dataDirectory>/mcp/` (none: nowhere, e.g. with history off); HTTP servers are reached
    /// with `network`'s CA file, proxy and diagnostics; `report` hears each problem.
    public init(
        _ settings: ToolSettings, servers names: [String]? = nil, dataDirectory: DataDirectory?,
        clientVersion: String, network: MCPNetworkSettings = MCPNetworkSettings(),
        report: @escaping @Sendable (_ server: String, _ message: String, _ log: String?) -> Void
    ) {
        let chosen = names ?? settings.servers ?? []
        let configured = (settings.serversValue?.object ?? [:]).filter { chosen.contains($0.key) }
        let parsed = MCPServerEntry.entries(in: .object(configured), environment: settings.environment)
        let entries = parsed.entries
        let directory = dataDirectory.flatMap { directory -> String? in
            guard directory.prepare() else { return nil }
            let path = directory.file("mcp")
            return FileSystem.isDirectory(path, mode: 0o700) || FileSystem.makeDirectory(path, mode: 0o700)
                ? path : nil
        }
        logDirectory = directory
        httpServers = Set(entries.filter { $0.url != nil }.map(\.name))
        servers = chosen
        approved = settings.approved
        self.report = report
        source = MCPToolSource(entries, clientVersion: clientVersion, network: network) { name in
            directory.map { $0 + "/" + Self.fileName(name) + ".log" } ?? "/dev/null"
        }
        for problem in parsed.problems { report("", problem.message, nil) }
        for problem in settings.problems { report("", problem, nil) }
    }

    public func tools() async -> [ToolDefinition] {
        let tools = await source.tools()
        let table = await source.routeTable
        routes.withLock { $0 = table }
        await reportProblems()
        return tools
    }

    public func call(_ call: ToolCall) async -> ToolResult {
        let result = await source.call(call)
        // A server that ended (or broke its output) during the call: said with its log.
        await reportProblems()
        return result
    }

    /// Ends every server started, each within 3 s.
    public func close() async {
        await source.close()
    }

    /// The server and the tool's own name of an offered tool name (`server__tool`, or cut and
    /// ending in a hash when long); nil for a name no server of this run's offers (or before the
    /// tools were first listed).
    public func route(_ offeredName: String) -> (server: String, tool: String)? {
        routes.withLock { $0[offeredName] }
    }

    /// Whether the offered tool runs without asking (`auto_approve`, `--yes-tools`): by the
    /// server's own name for it, as the approval names it (never by the offered name, which two
    /// tools' names can share once made fit).
    public func isApproved(_ offeredName: String) -> Bool {
        route(offeredName).flatMap { approved[$0.server]?.covers($0.tool) } ?? false
    }

    /// Where server `name`'s stderr goes; nil when it goes nowhere, or it is reached over HTTP.
    public func logPath(of name: String) -> String? {
        httpServers.contains(name) ? nil : logDirectory.map { $0 + "/" + Self.fileName(name) + ".log" }
    }

    private func reportProblems() async {
        let problems = await source.problems
        let new = reported.withLock { count in
            // Two calls may finish in either order: the count never goes back.
            defer { count = max(count, problems.count) }
            return problems.dropFirst(count)
        }
        for problem in new { report(problem.server, problem.message, logPath(of: problem.server)) }
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
