import ChatDomain
import ChatHTTP
import ChatSystem
import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The tools of the MCP servers a run uses (`ToolSource`), and their prompts and resources: each
/// server started (stdio) or connected (Streamable HTTP) when first needed, once, in the era it
/// speaks (`MCPClient.start`), and kept until `close()`; its tools offered as `server__tool`,
/// each call routed by the tool's origin (its server and the server's own name), never by undoing
/// the offered name. A server that cannot start, or fails to answer, offers nothing; what went
/// wrong is reported as it happens, and the other servers go on; so is a tool whose offered name
/// another tool has already (it is left out). The servers start side by side. The tools are asked
/// for again whenever their list is no longer fresh (`MCPListCache`): a server that says its
/// tools changed has them listed again before the next round.
actor MCPToolSource: ToolSource {
    private let entries: [MCPServerEntry]
    /// Where each stdio server's stderr goes, by name (nil: nowhere).
    private let logPath: @Sendable (String) -> String?
    private let clientVersion: String
    /// The HTTP servers' client: one kept connection to each.
    private let http: (any HTTPClient)?
    private let network: MCPNetworkSettings
    private let report: @Sendable (ToolServerProblem) -> Void
    /// Who answers the servers' questions (none: each is declined).
    private let answerer: (any ServerQuestionAnswerer)?
    /// The eras found, kept across runs.
    private let memory: MCPEraMemory?
    /// The most bytes of one image of a result (`max_tool_result_bytes`).
    private let imageLimit: Int
    /// Whether server `name` is in use now: only those are started, listed and asked.
    private let inUse: @Sendable (String) -> Bool
    /// The servers whose start was tried (each is tried once).
    private var attempted: Set<String> = []
    /// Whether each server has resources to offer the model (asked once).
    private var resourceful: [String: Bool] = [:]
    private var clients: [String: MCPClient] = [:]
    private var connections: [any MCPConnection] = []
    /// Why each server that could not be used could not.
    private var failures: [String: ToolServerFailure] = [:]
    private var offered: [ToolDefinition] = []
    /// Tools left out because their offered name was taken (said once each).
    private var clashes: Set<ToolOrigin> = []
    /// Servers found gone during a call (said once each).
    private var gone: Set<String> = []
    /// Servers whose tools could not be listed the last time (said once while that lasts).
    private var unlisted: Set<String> = []

    /// The servers of `entries`; the stderr of stdio server `name` goes to `logPath(name)`
    /// (nil: nowhere); HTTP servers are reached through `http` (a `CurlHTTPClient` of the
    /// source's own when nil), with `network`'s CA file and proxy, their `--verbose` lines to its
    /// log; `report` hears each problem as it happens, naming the server's log or endpoint;
    /// `answerer` answers the servers' questions; `memory` keeps the eras found; only the servers
    /// `inUse` says are in use (by default all) are started, when first needed.
    init(
        _ entries: [MCPServerEntry], clientVersion: String, http: (any HTTPClient)? = nil,
        network: MCPNetworkSettings = MCPNetworkSettings(), logPath: @escaping @Sendable (String) -> String?,
        report: @escaping @Sendable (ToolServerProblem) -> Void = { _ in },
        answerer: (any ServerQuestionAnswerer)? = nil, memory: MCPEraMemory? = nil, imageLimit: Int = 100_000,
        inUse: @escaping @Sendable (String) -> Bool = { _ in true }
    ) {
        self.inUse = inUse
        self.entries = entries
        self.clientVersion = clientVersion
        self.logPath = logPath
        self.network = network
        self.report = report
        self.answerer = answerer
        self.memory = memory
        self.imageLimit = imageLimit
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
        await startIfNeeded()
        // Each server's list, side by side (the kept one while it is fresh).
        let listed = await withTaskGroup(of: (String, Result<[ToolDefinition], ToolServerFailure>).self) { group in
            for (name, client) in clients where inUse(name) {
                group.addTask { (name, await client.tools()) }
            }
            var listed: [String: Result<[ToolDefinition], ToolServerFailure>] = [:]
            for await (name, result) in group { listed[name] = result }
            return listed
        }
        var taken: [String: ToolOrigin] = [:]
        offered = []
        for entry in entries {
            guard let result = listed[entry.name] else { continue }
            var tools: [ToolDefinition]
            switch result {
            case .success(let list):
                tools = list
                unlisted.remove(entry.name)
                // A server that has resources has them listed and read by the model too.
                if let client = clients[entry.name], await hasResources(entry.name, client) {
                    tools += MCPResourceTool.definitions(server: entry.name)
                }
            case .failure(let failure):
                // Said once while it lasts.
                if unlisted.insert(entry.name).inserted { report(entry.name, .listing, failure) }
                tools = []
            }
            for var tool in tools {
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

    /// Whether server `name` declares resources and has any (or a template), asked once: many
    /// servers declare the capability and have none, and two tools that find nothing are not
    /// worth offering.
    private func hasResources(_ name: String, _ client: MCPClient) async -> Bool {
        if let known = resourceful[name] { return known }
        var has = false
        if await client.offers("resources") {
            has = !((try? await client.resources().get()) ?? []).isEmpty
            if !has { has = !((try? await client.resourceTemplates().get()) ?? []).isEmpty }
        }
        resourceful[name] = has
        return has
    }

    /// Whether each server's tools could be listed the last time they were asked for: the
    /// servers that could not (or could not be used at all).
    func unlistedServers() -> Set<String> {
        unlisted.union(failures.keys)
    }

    func call(_ call: ToolCall, tool: ToolDefinition) async -> ToolResult {
        await self.call(call, tool: tool, progress: nil)
    }

    func call(_ call: ToolCall, tool: ToolDefinition, progress: @escaping @Sendable (ToolProgress) -> Void) async
        -> ToolResult
    {
        await self.call(call, tool: tool, progress: Optional(progress))
    }

    private func call(_ call: ToolCall, tool: ToolDefinition, progress: (@Sendable (ToolProgress) -> Void)?) async
        -> ToolResult
    {
        guard let origin = tool.origin, let client = clients[origin.server] else {
            return ToolResult(callID: call.id, failure: .notRunning)
        }
        if let resourceTool = MCPResourceTool(origin: origin) {
            return await resourceTool.run(call, client: client, imageLimit: imageLimit)
        }
        switch await client.call(
            origin.tool, arguments: call.arguments, callID: call.id, imageLimit: imageLimit, progress: progress)
        {
        case .success(let result):
            // A structured result that breaks the tool's own schema is the person's to know too.
            if let failure = result.failure { report(origin.server, .calling(tool: origin.tool), failure) }
            return result
        case .failure(let failure):
            // A server gone during a call is a problem of the server's too, said once.
            if failure.serverGone, gone.insert(origin.server).inserted {
                report(origin.server, .calling(tool: origin.tool), failure)
            }
            return ToolResult(callID: call.id, failure: failure)
        }
    }

    /// Each server as it stands (started if it was not): its protocol version and what it
    /// offers, or why it could not be used.
    func statuses() async -> [ToolServerStatus] {
        await startIfNeeded()
        var statuses: [ToolServerStatus] = []
        for entry in entries {
            guard let client = clients[entry.name] else {
                // A server not in use is only named.
                guard attempted.contains(entry.name) else {
                    statuses.append(ToolServerStatus(server: entry.name))
                    continue
                }
                statuses.append(ToolServerStatus(server: entry.name, failure: failures[entry.name] ?? .notRunning))
                continue
            }
            let capabilities = await client.knownCapabilities()
            statuses.append(
                ToolServerStatus(
                    server: entry.name, protocolVersion: client.protocolVersion,
                    offersTools: capabilities["tools"]?.isObject == true,
                    offersPrompts: capabilities["prompts"]?.isObject == true,
                    offersResources: capabilities["resources"]?.isObject == true))
        }
        return statuses
    }

    /// The prompts of every server that offers them, in the servers' order; a server whose list
    /// fails offers none (and the problem is reported).
    func prompts() async -> [ToolServerPrompt] {
        await startIfNeeded()
        var prompts: [ToolServerPrompt] = []
        for entry in entries where inUse(entry.name) {
            guard let client = clients[entry.name] else { continue }
            switch await client.prompts() {
            case .success(let listed): prompts += listed
            case .failure(let failure): report(entry.name, .listing, failure)
            }
        }
        return prompts
    }

    /// Server `server`'s client, started if need be.
    private func client(_ server: String) async -> Result<MCPClient, ToolServerFailure> {
        await startIfNeeded()
        guard let client = clients[server] else { return .failure(failures[server] ?? .notRunning) }
        return .success(client)
    }

    func prompt(server: String, name: String, arguments: [String: String]) async
        -> Result<ToolServerPromptMessages, ToolServerFailure>
    {
        switch await client(server) {
        case .success(let client): return await client.prompt(name, arguments: arguments, imageLimit: imageLimit)
        case .failure(let failure): return .failure(failure)
        }
    }

    func resources(server: String) async -> Result<[ToolServerResource], ToolServerFailure> {
        switch await client(server) {
        case .success(let client): return await client.resources()
        case .failure(let failure): return .failure(failure)
        }
    }

    func resourceTemplates(server: String) async -> Result<[ToolServerResourceTemplate], ToolServerFailure> {
        switch await client(server) {
        case .success(let client): return await client.resourceTemplates()
        case .failure(let failure): return .failure(failure)
        }
    }

    func readResource(server: String, uri: String) async -> Result<[ToolServerResourceContent], ToolServerFailure> {
        switch await client(server) {
        case .success(let client): return await client.readResource(uri, imageLimit: imageLimit)
        case .failure(let failure): return .failure(failure)
        }
    }

    /// Ends every server started, all at once, each within 3 s.
    func close() async {
        for client in clients.values { client.stopListening() }
        let ending = connections
        connections = []
        clients = [:]
        await withTaskGroup(of: Void.self) { group in
            for connection in ending { group.addTask { await connection.close() } }
        }
    }

    /// As this process ends: ends every server started as `close()` does, without waiting for
    /// a child to end: one still running after its input closed is left to a watcher that
    /// outlives this process (`ProcessSpawn.endAfterExit`: SIGTERM after 1 s, SIGKILL after 2 s
    /// more), or, where there can be none, waited for as `close()` does.
    func closeAtExit() async {
        for client in clients.values { client.stopListening() }
        let ending = connections
        connections = []
        clients = [:]
        let running = await withTaskGroup(of: Optional<pid_t>.self) { group -> [pid_t] in
            for connection in ending { group.addTask { await connection.closeAtExit() } }
            var running: [pid_t] = []
            for await pid in group { if let pid { running.append(pid) } }
            return running
        }
        guard !running.isEmpty,
            !ProcessSpawn.endAfterExit(
                running, terminateAfter: MCPStdioConnection.terminateAfter, killAfter: MCPStdioConnection.killAfter)
        else { return }
        await withTaskGroup(of: Void.self) { group in
            for pid in running {
                group.addTask {
                    await withCheckedContinuation { continuation in
                        DispatchQueue.global().async {
                            MCPStdioConnection.end(pid)
                            continuation.resume()
                        }
                    }
                }
            }
        }
    }

    /// Starts the servers in use that were not tried yet.
    private func startIfNeeded() async {
        let due = entries.filter { inUse($0.name) && !attempted.contains($0.name) }
        guard !due.isEmpty else { return }
        attempted.formUnion(due.map(\.name))
        await start(due)
    }

    /// Starts the servers of `entries` side by side, each in its era.
    private func start(_ entries: [MCPServerEntry]) async {
        typealias Started = (MCPServerEntry, (any MCPConnection)?, Result<MCPClient, ToolServerFailure>)
        let results = await withTaskGroup(of: Started.self) { group in
            for entry in entries {
                let logPath = logPath(entry.name) ?? "/dev/null"
                let (version, http, network, answerer, memory) = (clientVersion, http, network, answerer, memory)
                group.addTask {
                    let inbound = MCPInbound(server: entry.name, answerer: answerer)
                    let connection: any MCPConnection
                    do throws(ToolServerFailure) {
                        if let http, entry.url != nil {
                            connection = MCPHTTPConnection(entry, http: http, network: network, inbound: inbound)
                        } else {
                            connection = try MCPStdioConnection(entry, logPath: logPath, inbound: inbound)
                        }
                    } catch {
                        return (entry, nil, .failure(error))
                    }
                    let client = await MCPClient.start(
                        connection, entry: entry, clientVersion: version, inbound: inbound, memory: memory)
                    return (entry, connection, client)
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
            case .success(let client):
                clients[entry.name] = client
            case .failure(let failure):
                failures[entry.name] = failure
                report(entry.name, .starting, failure)
                await connection?.close()
            }
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
