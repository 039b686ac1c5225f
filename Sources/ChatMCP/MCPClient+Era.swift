import ChatDomain

/// How the era spoken with a server is found, as the 2026-07-28 specification's compatibility
/// section says: the pinned one (`protocol_version`), else the remembered one (`MCPEraMemory`),
/// else a probe: `server/discover` in the modern era; a `DiscoverResult` or a modern error is a
/// modern server; any other error (over HTTP, a 4xx without a modern error in its body), or over
/// stdio no answer within a short wait, is a legacy one, and `initialize` follows. A 401 or 403
/// means the server wants a sign-in, not that it is of an era: the connection signs in first
/// (`BearerTokenProvider`) and sends the probe again; one it could not settle is no era.
extension MCPClient {
    /// Opens MCP with `entry`'s server on `connection`, in the era found; the era a probe found is
    /// remembered in `memory`.
    static func start(
        _ connection: any MCPConnection, entry: MCPServerEntry, clientVersion: String, inbound: MCPInbound? = nil,
        memory: MCPEraMemory? = nil
    ) async -> Result<MCPClient, ToolServerFailure> {
        let inbound = inbound ?? MCPInbound(server: entry.name, answerer: nil)
        func client(_ era: MCPEra) -> MCPClient {
            MCPClient(
                connection, entry: entry, era: era, inbound: inbound, clientVersion: clientVersion, memory: memory)
        }
        if let pinned = entry.protocolVersion.flatMap(MCPEra.init(version:)) {
            let client = client(pinned)
            guard case .legacy(let version) = pinned else { return .success(client) }
            return await client.initialize(offering: version).map { client }.mapError(\.failure)
        }
        if let remembered = memory?.recall(entry), let era = MCPEra(version: remembered.version) {
            let client = client(era)
            switch era {
            case .modern:
                client.state.withLock { state in
                    state.capabilities = remembered.capabilities
                    state.assumed = true
                }
                return .success(client)
            case .legacy(let version):
                switch await client.initialize(offering: version) {
                case .success: return .success(client)
                case .failure(let error) where refusesEra(error): return await client.probe().map { client }
                case .failure(let error): return .failure(error.failure)
                }
            }
        }
        let client = client(.modern(MCPEra.modernVersions[0]))
        return await client.probe().map { client }
    }

    /// Finds the server's era by `server/discover`, and opens it: the modern era at a version both
    /// speak, or the legacy one by `initialize`.
    func probe() async -> Result<Void, ToolServerFailure> {
        var offered = MCPEra.modernVersions[0]
        var tried: Set<String> = []
        // Over stdio a legacy server may not answer at all: wait no longer than its timeout, and
        // at most 10 s (as the SDKs' clients do).
        let timeout = entry.url == nil ? min(10, entry.startTimeout, entry.callTimeout) : entry.startTimeout
        while true {
            tried.insert(offered)
            let request = MCPRequest(
                "server/discover", params: .object(["_meta": .object(modernMeta(offered))]), timeout: timeout,
                modernVersion: offered)
            switch await connection.request(request) {
            case .success(let answer):
                let supported = answer["supportedVersions"]?.array?.compactMap(\.string) ?? [offered]
                guard let version = MCPEra.modernVersions.first(where: supported.contains) else {
                    return await fallBack(supported)
                }
                speak(.modern(version), capabilities: answer["capabilities"] ?? .object([:]))
                return .success(())
            case .failure(.rpc(let error, let status)):
                // A refusal of who is asking (a sign-in chat could not make, or an Authorization
                // of the entry's own refused) is no sign of an era.
                if let status, status == 401 || status == 403 {
                    return .failure(.httpStatus(status, body: ServerText.line(error.message, limit: 200)))
                }
                if error.code == MCPRPCError.unsupportedVersion {
                    let supported = error.supportedVersions
                    if let version = MCPEra.modernVersions.first(where: {
                        supported.contains($0) && !tried.contains($0)
                    }) {
                        offered = version
                        continue
                    }
                    return await fallBack(supported)
                }
                guard error.isModern else {
                    return await initialize(offering: MCPEra.legacyVersions[0]).mapError(\.failure)
                }
                // A modern server that refused the request for another reason: modern, its
                // capabilities unknown.
                speak(.modern(offered), capabilities: nil)
                return .success(())
            case .failure(.failure(let failure, _)):
                switch failure {
                case .httpStatus(let status, _) where status == 401 || status == 403:
                    return .failure(failure)
                case .httpStatus(let status, _) where (400..<500).contains(status):
                    return await initialize(offering: MCPEra.legacyVersions[0]).mapError(\.failure)
                case .noAnswer where entry.url == nil:
                    return await initialize(offering: MCPEra.legacyVersions[0]).mapError(\.failure)
                default:
                    // An outage is no sign of an era.
                    return .failure(failure)
                }
            }
        }
    }

    /// The legacy era at a version of `supported` chat speaks (the newest of chat's when the
    /// server named none); none of them: the server speaks no version chat does.
    private func fallBack(_ supported: [String]) async -> Result<Void, ToolServerFailure> {
        guard supported.isEmpty || supported.contains(where: MCPEra.legacyVersions.contains) else {
            return .failure(
                .unsupportedProtocol(version: ServerText.line(supported.joined(separator: ", "), limit: 80)))
        }
        let version = MCPEra.legacyVersions.first(where: supported.contains) ?? MCPEra.legacyVersions[0]
        return await initialize(offering: version).mapError(\.failure)
    }

    /// Opens the legacy era: `initialize` offering `version`, the server's choice of version kept,
    /// then `notifications/initialized`. A server that answers it with -32022 is a modern one (a
    /// connection the probe's late answer locked modern, or a remembered era gone out of date):
    /// the modern era then, at a version both speak.
    func initialize(offering version: String) async -> Result<Void, MCPRequestError> {
        let params = JSONValue.object([
            "protocolVersion": .string(version), "capabilities": Self.capabilities,
            "clientInfo": .object(["name": .string("chat"), "version": .string(clientVersion)]),
        ])
        switch await connection.request("initialize", params: params, timeout: entry.startTimeout) {
        case .failure(.rpc(let error, _)) where error.code == MCPRPCError.unsupportedVersion:
            guard let modern = MCPEra.modernVersions.first(where: error.supportedVersions.contains) else {
                return .failure(.rpc(error, status: nil))
            }
            speak(.modern(modern), capabilities: nil)
            // What it offers: asked now, as the probe would have.
            let discovered = await send("server/discover", safe: true)
            if case .success(let answer) = discovered {
                speak(.modern(modern), capabilities: answer["capabilities"] ?? .object([:]))
            }
            return .success(())
        case .failure(let error):
            return .failure(error)
        case .success(let answer):
            guard let agreed = answer["protocolVersion"]?.string else { return .failure(.failed(.noProtocolVersion)) }
            guard MCPEra.legacyVersions.contains(agreed) else {
                return .failure(.failed(.unsupportedProtocol(version: ServerText.line(agreed, limit: 40))))
            }
            speak(.legacy(agreed), capabilities: answer["capabilities"] ?? .object([:]))
            await connection.notify("notifications/initialized")
            return .success(())
        }
    }

    /// Speaks `era` from now on, with the server's `capabilities` (nil: not known), and
    /// remembers it for the next run (not a pinned era).
    private func speak(_ era: MCPEra, capabilities: JSONValue?) {
        state.withLock { state in
            state.era = era
            state.capabilities = capabilities
        }
        guard entry.protocolVersion == nil else { return }
        memory?.remember(
            MCPEraMemory.Remembered(version: era.version, capabilities: era.isModern ? capabilities : nil), for: entry)
    }
}
