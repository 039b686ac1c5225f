import ChatDomain

/// The tools of the MCP servers a run uses (`ToolSource`): each server started when its tools
/// are first needed, once, and kept until `close()`; its tools offered as `server__tool`, the
/// name undone exactly when calling. A server that cannot start, or fails to answer, offers no
/// tools; what went wrong is in `problems`, a line each, and the other servers go on. The
/// servers start side by side; one that says its tools changed
/// (`notifications/tools/list_changed`) is asked for them again before the next request.
actor MCPToolSource: ToolSource {
    private let entries: [MCPServerEntry]
    private let logPath: @Sendable (String) -> String
    private let clientVersion: String
    private var started = false
    private var clients: [String: MCPClient] = [:]
    private var connections: [MCPStdioConnection] = []
    /// Each server's tools, as the server names them.
    private var listed: [String: [ToolDefinition]] = [:]
    /// Servers whose tools changed since they were listed.
    private var stale: Set<String> = []
    /// The offered name of each tool: its server and its own name.
    private var routes: [String: (server: String, tool: String)] = [:]
    private var offered: [ToolDefinition] = []
    /// What went wrong with each server that offers no tools, in order.
    private(set) var problems: [(server: String, message: String)] = []

    /// The servers of `entries`; the stderr of server `name` goes to `logPath(name)`.
    init(_ entries: [MCPServerEntry], clientVersion: String, logPath: @escaping @Sendable (String) -> String) {
        self.entries = entries
        self.clientVersion = clientVersion
        self.logPath = logPath
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
                guard routes[name] == nil else { continue }
                routes[name] = (entry.name, tool.name)
                tool.name = name
                offered.append(tool)
            }
        }
        return offered
    }

    func call(_ call: ToolCall) async -> ToolResult {
        guard let route = routes[call.name], let client = clients[route.server] else {
            return ToolResult(
                callID: call.id, content: [.text("there is no tool named \"\(call.name)\"")], isError: true)
        }
        return await client.call(route.tool, arguments: call.arguments, callID: call.id)
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
        typealias Started = (MCPServerEntry, MCPStdioConnection?, Result<(MCPClient, [ToolDefinition]), MCPFailure>)
        let results = await withTaskGroup(of: Started.self) { group in
            for entry in entries {
                let log = logPath(entry.name)
                let version = clientVersion
                group.addTask { [weak self] in
                    let connection: MCPStdioConnection
                    do throws(MCPFailure) {
                        connection = try MCPStdioConnection(entry, logPath: log) { [weak self] method in
                            guard method == "notifications/tools/list_changed", let self else { return }
                            Task { await self.toolsChanged(entry.name) }
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
    private static func open(_ connection: MCPStdioConnection, entry: MCPServerEntry, clientVersion: String) async
        -> Result<(MCPClient, [ToolDefinition]), MCPFailure>
    {
        switch await MCPClient.start(connection, entry: entry, clientVersion: clientVersion) {
        case .failure(let failure): return .failure(failure)
        case .success(let client): return await client.tools().map { (client, $0) }
        }
    }

    /// `server__tool`, within the providers' rules for a name (letters, digits, `_` and `-`, at
    /// most 64): anything else becomes `_`, and a long name is cut.
    static func offeredName(server: String, tool: String) -> String {
        let allowed = { (scalar: Unicode.Scalar) in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-")
        }
        let name = String(String.UnicodeScalarView("\(server)__\(tool)".unicodeScalars.map { allowed($0) ? $0 : "_" }))
        return String(name.prefix(64))
    }
}
