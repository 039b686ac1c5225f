import ChatDomain
import ChatHTTP

/// The tools of the MCP servers a run uses (`ToolSource`): each server started (stdio) or
/// connected (Streamable HTTP) when its tools are first needed, once, and kept until `close()`;
/// its tools offered as `server__tool`, each call routed by the tool's origin (its server and
/// the server's own name), never by undoing the offered name. A server that cannot start, or
/// fails to answer, offers no tools; what went wrong is reported as it happens, and the other
/// servers go on; so is a tool whose offered name another tool has already (it is left out).
/// The servers start side by side; one that says its tools changed
/// (`notifications/tools/list_changed`) is asked for them again before the next request.
actor MCPToolSource: ToolSource {
    private let entries: [MCPServerEntry]
    /// Where each stdio server's stderr goes, by name (nil: nowhere).
    private let logPath: @Sendable (String) -> String?
    private let clientVersion: String
    /// The HTTP servers' client: one kept connection to each.
    private let http: (any HTTPClient)?
    private let network: MCPNetworkSettings
    private let report: @Sendable (ToolServerProblem) -> Void
    private var started = false
    private var clients: [String: MCPClient] = [:]
    private var connections: [any MCPConnection] = []
    /// Each server's tools, as the server names them.
    private var listed: [String: [ToolDefinition]] = [:]
    /// Servers whose tools changed since they were listed.
    private var stale: Set<String> = []
    private var offered: [ToolDefinition] = []
    /// Tools left out because their offered name was taken (said once each).
    private var clashes: Set<ToolOrigin> = []
    /// Servers found gone during a call (said once each).
    private var gone: Set<String> = []

    /// The servers of `entries`; the stderr of stdio server `name` goes to `logPath(name)`
    /// (nil: nowhere); HTTP servers are reached through `http` (a `CurlHTTPClient` of the
    /// source's own when nil), with `network`'s CA file and proxy, their `--verbose` lines to its
    /// log; `report` hears each problem as it happens, naming the server's log or endpoint.
    init(
        _ entries: [MCPServerEntry], clientVersion: String, http: (any HTTPClient)? = nil,
        network: MCPNetworkSettings = MCPNetworkSettings(), logPath: @escaping @Sendable (String) -> String?,
        report: @escaping @Sendable (ToolServerProblem) -> Void = { _ in }
    ) {
        self.entries = entries
        self.clientVersion = clientVersion
        self.logPath = logPath
        self.network = network
        self.report = report
        self.http = http ?? (entries.contains { $0.url != nil } ? CurlHTTPClient() : nil)
    }

    /// Tells of a problem of server `name`'s, met at `step`.
    private func report(_ name: String, _ step: ToolServerStep, _ failure: ToolServerFailure) {
        let endpoint = entries.first { $0.name == name }?.url.map(MCPHTTPConnection.place(of:))
        report(
            ToolServerProblem(
                server: name, step: step, failure: failure, log: endpoint == nil ? logPath(name) : nil,
                endpoint: endpoint))
    }

    func tools() async -> [ToolDefinition] {
        if !started {
            started = true
            await startAll()
        } else if stale.isEmpty {
            return offered
        }
        for server in stale.sorted() {
            guard let client = clients[server] else { continue }
            switch await client.tools() {
            case .success(let tools): listed[server] = tools
            case .failure(let failure):
                listed[server] = []
                report(server, .listing, failure)
            }
        }
        stale = []
        var taken: [String: ToolOrigin] = [:]
        offered = []
        for entry in entries {
            for var tool in listed[entry.name] ?? [] {
                let origin = tool.origin ?? ToolOrigin(server: entry.name, tool: tool.name)
                let name = Self.offeredName(server: entry.name, tool: tool.name)
                if let owner = taken[name] {
                    if clashes.insert(origin).inserted {
                        report(entry.name, .listing, .nameTaken(tool: tool.name, offeredAs: name, takenBy: owner))
                    }
                    continue
                }
                taken[name] = origin
                tool.name = name
                tool.origin = origin
                offered.append(tool)
            }
        }
        return offered
    }

    func call(_ call: ToolCall, tool: ToolDefinition) async -> ToolResult {
        guard let origin = tool.origin, let client = clients[origin.server] else {
            return ToolResult(callID: call.id, failure: .notRunning)
        }
        switch await client.call(origin.tool, arguments: call.arguments, callID: call.id) {
        case .success(let result):
            return result
        case .failure(let failure):
            // A server gone during a call is a problem of the server's too, said once.
            if failure.serverGone, gone.insert(origin.server).inserted {
                report(origin.server, .calling(tool: origin.tool), failure)
            }
            return ToolResult(callID: call.id, failure: failure)
        }
    }

    /// Ends every server started, all at once, each within 3 s.
    func close() async {
        let ending = connections
        connections = []
        clients = [:]
        await withTaskGroup(of: Void.self) { group in
            for connection in ending { group.addTask { await connection.close() } }
        }
    }

    /// Server `name` said its tools changed.
    private func toolsChanged(_ name: String) {
        if clients[name] != nil { stale.insert(name) }
    }

    /// Starts every server side by side, and lists their tools.
    private func startAll() async {
        typealias Opened = Result<(MCPClient, [ToolDefinition]), StepFailure>
        typealias Started = (MCPServerEntry, (any MCPConnection)?, Opened)
        let results = await withTaskGroup(of: Started.self) { group in
            for entry in entries {
                let logPath = logPath(entry.name) ?? "/dev/null"
                let version = clientVersion
                let (http, network) = (http, network)
                group.addTask { [weak self] in
                    let connection: any MCPConnection
                    let onNotification: @Sendable (String) -> Void = { [weak self] method in
                        guard method == "notifications/tools/list_changed", let self else { return }
                        Task { await self.toolsChanged(entry.name) }
                    }
                    do throws(ToolServerFailure) {
                        if let http, entry.url != nil {
                            connection = MCPHTTPConnection(
                                entry, http: http, network: network, onNotification: onNotification)
                        } else {
                            connection = try MCPStdioConnection(entry, logPath: logPath, onNotification: onNotification)
                        }
                    } catch {
                        return (entry, nil, .failure(StepFailure(step: .starting, failure: error)))
                    }
                    return (entry, connection, await Self.open(connection, entry: entry, clientVersion: version))
                }
            }
            var results: [Started] = []
            for await result in group { results.append(result) }
            return results
        }
        for entry in entries {
            guard let (_, connection, result) = results.first(where: { $0.0.name == entry.name }) else { continue }
            if let connection { connections.append(connection) }
            switch result {
            case .success(let (client, tools)):
                clients[entry.name] = client
                listed[entry.name] = tools
            case .failure(let failed):
                report(entry.name, failed.step, failed.failure)
                await connection?.close()
            }
        }
    }

    /// A failure, and the step it came at.
    private struct StepFailure: Error {
        var step: ToolServerStep
        var failure: ToolServerFailure
    }

    /// The session with a started server, and its tools.
    private static func open(_ connection: any MCPConnection, entry: MCPServerEntry, clientVersion: String) async
        -> Result<(MCPClient, [ToolDefinition]), StepFailure>
    {
        switch await MCPClient.start(connection, entry: entry, clientVersion: clientVersion) {
        case .failure(let failure): return .failure(StepFailure(step: .starting, failure: failure))
        case .success(let client):
            return await client.tools().map { (client, $0) }.mapError { StepFailure(step: .listing, failure: $0) }
        }
    }

    /// The longest name the providers take.
    static let longestName = 64

    /// `server__tool`, within the providers' rules for a name (letters, digits, `_` and `-`, at
    /// most 64): anything else becomes `_`, and a longer name is cut to 55 and ends in `_` and
    /// eight hex digits of a hash of the whole, so that two long names that begin alike stay
    /// apart. The same server and tool always give the same name; the call is routed by it, never
    /// by undoing it.
    static func offeredName(server: String, tool: String) -> String {
        let allowed = { (scalar: Unicode.Scalar) in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-")
        }
        let whole = "\(server)__\(tool)"
        let name = String(String.UnicodeScalarView(whole.unicodeScalars.map { allowed($0) ? $0 : "_" }))
        guard name.count > longestName else { return name }
        // FNV-1a: the same in every run and on every machine (Swift's `Hasher` is seeded per run).
        let hash = whole.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        let digits = String(hash & 0xFFFF_FFFF, radix: 16)
        return name.prefix(longestName - 9) + "_" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}
