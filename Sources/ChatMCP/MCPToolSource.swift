import ChatDomain
import ChatHTTP

/// The tools of the MCP servers a run uses (`ToolSource`): each server started (stdio) or
/// connected (Streamable HTTP) when its tools are first needed, once, and kept until `close()`;
/// its tools offered as `server__tool`, the name undone exactly when calling. A server that
/// cannot start, or fails to answer, offers no tools; what went wrong is in `problems`, a line
/// each, and the other servers go on; so is a tool whose offered name another tool has already
/// (it is left out). The servers start side by side; one that says its tools changed
/// (`notifications/tools/list_changed`) is asked for them again before the next request.
actor MCPToolSource: ToolSource {
    private let entries: [MCPServerEntry]
    private let logPath: @Sendable (String) -> String
    private let clientVersion: String
    /// The HTTP servers' client: one kept connection to each.
    private let http: (any HTTPClient)?
    private let network: MCPNetworkSettings
    private var started = false
    private var clients: [String: MCPClient] = [:]
    private var connections: [any MCPConnection] = []
    /// Each server's tools, as the server names them.
    private var listed: [String: [ToolDefinition]] = [:]
    /// Servers whose tools changed since they were listed.
    private var stale: Set<String> = []
    /// The offered name of each tool: its server and its own name.
    private var routes: [String: (server: String, tool: String)] = [:]
    private var offered: [ToolDefinition] = []
    /// Tools left out because their offered name was taken, as `server\0tool` (said once).
    private var clashes: Set<String> = []
    /// What went wrong with each server that offers no tools (or a tool it left out), in order.
    private(set) var problems: [(server: String, message: String)] = []
    /// Servers found gone during a call (said once each in `problems`).
    private var gone: Set<String> = []

    /// The servers of `entries`; the stderr of stdio server `name` goes to `logPath(name)`; HTTP
    /// servers are reached through `http` (a `CurlHTTPClient` of the source's own when nil),
    /// with `network`'s CA file and proxy, their `--verbose` lines to its log.
    init(
        _ entries: [MCPServerEntry], clientVersion: String, http: (any HTTPClient)? = nil,
        network: MCPNetworkSettings = MCPNetworkSettings(), logPath: @escaping @Sendable (String) -> String
    ) {
        self.entries = entries
        self.clientVersion = clientVersion
        self.logPath = logPath
        self.network = network
        self.http = http ?? (entries.contains { $0.url != nil } ? CurlHTTPClient() : nil)
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
                problems.append((server, failure.message))
            }
        }
        stale = []
        routes = [:]
        offered = []
        for entry in entries {
            for var tool in listed[entry.name] ?? [] {
                let name = Self.offeredName(server: entry.name, tool: tool.name)
                if let taken = routes[name] {
                    sayClash(entry.name, tool.name, name, with: taken)
                    continue
                }
                routes[name] = (entry.name, tool.name)
                tool.name = name
                offered.append(tool)
            }
        }
        return offered
    }

    /// One problem line, once, for server's tool `tool`, left out because `name` is `taken`.
    private func sayClash(_ server: String, _ tool: String, _ name: String, with taken: (server: String, tool: String))
    {
        guard clashes.insert(server + "\u{0}" + tool).inserted else { return }
        let owner = taken.server == server ? "its" : "server \"\(ServerText.line(taken.server, limit: 60))\"'s"
        let line =
            "its tool \"\(ServerText.line(tool, limit: 80))\" is left out: it would be offered as \(name), the name "
            + "\(owner) tool \"\(ServerText.line(taken.tool, limit: 80))\" has"
        problems.append((server, line))
    }

    /// Each offered tool's server and own name, as `tools()` last made them.
    var routeTable: [String: (server: String, tool: String)] { routes }

    func call(_ call: ToolCall) async -> ToolResult {
        guard let route = routes[call.name], let client = clients[route.server] else {
            return ToolResult(
                callID: call.id, content: [.text("there is no tool named \"\(call.name)\"")], isError: true)
        }
        switch await client.call(route.tool, arguments: call.arguments, callID: call.id) {
        case .success(let result):
            return result
        case .failure(let failure):
            // A server gone during a call is a problem of the server's too, said once.
            if failure.serverGone, gone.insert(route.server).inserted {
                problems.append((route.server, failure.message))
            }
            return ToolResult(callID: call.id, content: [.text(failure.message)], isError: true)
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
        typealias Started = (MCPServerEntry, (any MCPConnection)?, Result<(MCPClient, [ToolDefinition]), MCPFailure>)
        let results = await withTaskGroup(of: Started.self) { group in
            for entry in entries {
                let logPath = logPath(entry.name)
                let version = clientVersion
                let (http, network) = (http, network)
                group.addTask { [weak self] in
                    let connection: any MCPConnection
                    let onNotification: @Sendable (String) -> Void = { [weak self] method in
                        guard method == "notifications/tools/list_changed", let self else { return }
                        Task { await self.toolsChanged(entry.name) }
                    }
                    do throws(MCPFailure) {
                        if let http, entry.url != nil {
                            connection = MCPHTTPConnection(
                                entry, http: http, network: network, onNotification: onNotification)
                        } else {
                            connection = try MCPStdioConnection(entry, logPath: logPath, onNotification: onNotification)
                        }
                    } catch {
                        return (entry, nil, .failure(error))
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
            case .failure(let failure):
                problems.append((entry.name, failure.message))
                await connection?.close()
            }
        }
    }

    /// The session with a started server, and its tools.
    private static func open(_ connection: any MCPConnection, entry: MCPServerEntry, clientVersion: String) async
        -> Result<(MCPClient, [ToolDefinition]), MCPFailure>
    {
        switch await MCPClient.start(connection, entry: entry, clientVersion: clientVersion) {
        case .failure(let failure): return .failure(failure)
        case .success(let client): return await client.tools().map { (client, $0) }
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
