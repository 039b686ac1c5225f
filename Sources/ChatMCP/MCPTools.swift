import ChatDomain
import ChatSystem

/// The tools of the MCP servers a run uses, as the composition root sees them (`ToolSource`):
/// the servers its `ToolSettings` chose, started when their tools are first needed, each
/// server's stderr in `<data directory>/mcp/<server>.log`; every problem (an entry that cannot
/// be used, a server that cannot start or answer) told to the reporter as it happens, with the
/// server's log file or endpoint. Each tool offered says its origin and whether it runs without
/// asking.
public final class MCPTools: ToolSource {
    private let source: MCPToolSource
    /// The servers used, in the order chosen.
    public let servers: [String]
    private let approved: [String: ToolApproval]

    /// The servers `names` of `settings` (by default the ones it chose). Their logs go to
    /// `<dataDirectory>/mcp/` (none: nowhere, e.g. with history off); HTTP servers are reached
    /// with `network`'s CA file, proxy and diagnostics; `reporter` hears each problem.
    public init(
        _ settings: ToolSettings, servers names: [String]? = nil, dataDirectory: DataDirectory?,
        clientVersion: String, network: MCPNetworkSettings = MCPNetworkSettings(),
        reporter: any ToolProblemReporter
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
        servers = chosen
        approved = settings.approved
        source = MCPToolSource(entries, clientVersion: clientVersion, network: network) { name in
            directory.map { $0 + "/" + Self.fileName(name) + ".log" }
        } report: { problem in
            reporter.report(problem)
        }
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

    /// Ends every server started, each within 3 s.
    public func close() async {
        await source.close()
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
