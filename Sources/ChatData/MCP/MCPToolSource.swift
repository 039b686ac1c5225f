import ChatDomain

/// The tools of the MCP servers a run uses (`ToolSource`): each server started when its tools
/// are first needed, once, and kept until `close()`; its tools offered as `server__tool`, the
/// name undone exactly when calling. A server that cannot start, or fails to answer, offers no
/// tools; what went wrong is in `problems`, a line each, and the other servers go on.
actor MCPToolSource: ToolSource {
    private let entries: [MCPServerEntry]
    private let logPath: @Sendable (String) -> String
    private let clientVersion: String
    private var clients: [String: MCPClient] = [:]
    private var connections: [MCPStdioConnection] = []
    /// The offered name of each tool: its server and its own name.
    private var routes: [String: (server: String, tool: String)] = [:]
    private var offered: [ToolDefinition]?
    /// What went wrong with each server that offers no tools, in order.
    private(set) var problems: [(server: String, message: String)] = []

    /// The servers of `entries`; the stderr of server `name` goes to `logPath(name)`.
    init(_ entries: [MCPServerEntry], clientVersion: String, logPath: @escaping @Sendable (String) -> String) {
        self.entries = entries
        self.clientVersion = clientVersion
        self.logPath = logPath
    }

    func tools() async -> [ToolDefinition] {
        if let offered { return offered }
        var all: [ToolDefinition] = []
        for entry in entries {
            switch await start(entry) {
            case .failure(let failure):
                problems.append((entry.name, failure.message))
            case .success(let tools):
                for var tool in tools {
                    let name = Self.offeredName(server: entry.name, tool: tool.name)
                    guard routes[name] == nil else { continue }
                    routes[name] = (entry.name, tool.name)
                    tool.name = name
                    all.append(tool)
                }
            }
        }
        offered = all
        return all
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

    private func start(_ entry: MCPServerEntry) async -> Result<[ToolDefinition], MCPFailure> {
        let connection: MCPStdioConnection
        do {
            connection = try MCPStdioConnection(entry, logPath: logPath(entry.name))
        } catch {
            return .failure(error)
        }
        connections.append(connection)
        let started = await MCPClient.start(connection, entry: entry, clientVersion: clientVersion)
        guard case .success(let client) = started else {
            await connection.close()
            return started.map { _ in [] }
        }
        let tools = await client.tools()
        if case .success = tools { clients[entry.name] = client } else { await connection.close() }
        return tools
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
