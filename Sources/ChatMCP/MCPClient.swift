import ChatDomain
import ChatJSON
import ChatSystem
import Synchronization

/// MCP with one server over a connection of either kind (`MCPConnection`), in the era the server
/// speaks (`MCPEra`, found by `start`). In the modern era every request carries `_meta`: the
/// protocol version, chat's capabilities (elicitation, form and url) and chat's name and version;
/// in the legacy era a session opened by `initialize`. Requests that may be asked again safely
/// (lists, discovery, `resources/read`, `prompts/get`, a tool marked idempotent) are sent again
/// once, as a new request, when their answer broke off; a server that needs more from the person
/// (`input_required`) has its questions put to the `ServerQuestionAnswerer` and the request sent
/// again with the answers, a bounded number of times.
final class MCPClient: Sendable {
    struct State {
        var era: MCPEra
        /// What the server declared it offers (`server/discover`, `initialize`); nil when it is
        /// not known (a modern era pinned, and no `server/discover` yet).
        var capabilities: JSONValue?
        /// The era came from the memory and no request has yet shown it right: a refusal that
        /// says otherwise makes chat probe again.
        var assumed = false
        /// Each tool's output schema and hints, by the server's name for it.
        var tools: [String: MCPToolInfo] = [:]
        /// When each list (by method) is no longer fresh, in monotonic nanoseconds (modern
        /// `ttlMs`); a list not here stays fresh until the server says it changed.
        var staleAt: [String: UInt64] = [:]
        /// The subscription to the server's list changes, while it lasts.
        var listening: Task<Void, Never>?
        /// Whether the subscription was opened this run.
        var listened = false
    }

    /// The capabilities chat declares: it answers a server's questions, in forms and at URLs.
    static let capabilities: JSONValue = .object([
        "elicitation": .object(["form": .object([:]), "url": .object([:])])
    ])
    /// The most `input_required` rounds one request may take.
    static let inputRounds = 10

    let connection: any MCPConnection
    let entry: MCPServerEntry
    let inbound: MCPInbound
    let clientVersion: String
    let memory: MCPEraMemory?
    let state: Mutex<State>
    /// The server's lists while they are fresh (made stale by its notifications, through `inbound`).
    var lists: MCPListCache { inbound.lists }

    init(
        _ connection: any MCPConnection, entry: MCPServerEntry, era: MCPEra, inbound: MCPInbound,
        clientVersion: String, memory: MCPEraMemory? = nil
    ) {
        self.connection = connection
        self.entry = entry
        self.inbound = inbound
        self.clientVersion = clientVersion
        self.memory = memory
        state = Mutex(State(era: era))
    }

    /// The era spoken with the server.
    var era: MCPEra { state.withLock { $0.era } }
    /// The version spoken with the server (`2026-07-28`, `2025-11-25`…).
    var protocolVersion: String { era.version }
    /// What the server declared it offers, when known.
    var capabilities: JSONValue? { state.withLock { $0.capabilities } }

    /// `meta` for a modern request in `version`: the version, chat's capabilities and chat's name.
    func modernMeta(_ version: String) -> [String: JSONValue] {
        [
            "io.modelcontextprotocol/protocolVersion": .string(version),
            "io.modelcontextprotocol/clientCapabilities": Self.capabilities,
            "io.modelcontextprotocol/clientInfo": .object([
                "name": .string("chat"), "version": .string(clientVersion),
            ]),
        ]
    }

    /// Sends request `method` with `params` in the era spoken, `_meta` added (in the modern era,
    /// the envelope; `progressToken` when given). `name` is what `Mcp-Name` says. A broken
    /// answer to a `safe` request is sent again once, as a new request. A remembered era that
    /// the answer shows wrong is probed again, and the request sent in the era found.
    func send(
        _ method: String, params: [String: JSONValue] = [:], timeout: Double? = nil, name: String? = nil,
        safe: Bool, progressToken: String? = nil
    ) async -> Result<JSONValue, MCPRequestError> {
        var reissued = false
        var reprobed = false
        while true {
            let era = era
            var params = params
            var meta = params["_meta"]?.object ?? [:]
            if case .modern(let version) = era { meta.merge(modernMeta(version)) { $1 } }
            if let progressToken { meta["progressToken"] = .string(progressToken) }
            if !meta.isEmpty { params["_meta"] = .object(meta) }
            let request = MCPRequest(
                method, params: .object(params), timeout: timeout ?? entry.startTimeout,
                modernVersion: era.isModern ? era.version : nil, name: name)
            let result = await connection.request(request)
            switch result {
            case .success:
                state.withLock { $0.assumed = false }
                return result
            case .failure(let error):
                if error.isBroken && safe && !reissued && !Task.isCancelled {
                    reissued = true
                    continue
                }
                // A remembered era the server refuses, or a version it says it does not speak
                // (-32022, with the ones it does): probed again, once; never a pinned one.
                let assumed = state.withLock { $0.assumed }
                if !reprobed, entry.protocolVersion == nil,
                    (assumed && Self.refusesEra(error)) || error.rpc?.code == MCPRPCError.unsupportedVersion
                {
                    reprobed = true
                    state.withLock { $0.assumed = false }
                    if case .failure(let failure) = await probe() { return .failure(.failed(failure)) }
                    continue
                }
                return result
            }
        }
    }

    /// Whether `error` says the server does not speak the era a request was sent in: a JSON-RPC
    /// error that is not one of the modern era's own, or an HTTP client error with no such body.
    static func refusesEra(_ error: MCPRequestError) -> Bool {
        switch error {
        case .rpc(let rpc, _): return !rpc.isModern || rpc.code == MCPRPCError.unsupportedVersion
        case .failure(.httpStatus(let status, _), _):
            return (400..<500).contains(status) && status != 401 && status != 403
        default: return false
        }
    }

    /// Sends `method` as `send` does, and, while the server answers `input_required`, puts its
    /// questions to the person and sends the request again (a new request, with the answers as
    /// `inputResponses` and the server's `requestState` as it was, or none when it gave none),
    /// at most `inputRounds` times.
    func sendAnswering(
        _ method: String, params: [String: JSONValue], timeout: Double? = nil, name: String?, safe: Bool,
        progressToken: String? = nil
    ) async -> Result<JSONValue, MCPRequestError> {
        var params = params
        var rounds = 0
        while true {
            let result = await send(
                method, params: params, timeout: timeout, name: name, safe: safe, progressToken: progressToken)
            guard case .success(let answer) = result, answer["resultType"]?.string == "input_required" else {
                return result
            }
            rounds += 1
            guard rounds <= Self.inputRounds else { return .failure(.failed(.inputRounds(Self.inputRounds))) }
            params["inputResponses"] = nil
            params["requestState"] = nil
            let requests = answer["inputRequests"]?.object ?? [:]
            if !requests.isEmpty {
                var responses: [String: JSONValue] = [:]
                for key in requests.keys.sorted() {
                    guard let request = requests[key] else { continue }
                    let asked = request["method"]?.string ?? ""
                    guard asked == "elicitation/create" else {
                        return .failure(.failed(.unansweredRequest(method: ServerText.line(asked, limit: 60))))
                    }
                    switch await inbound.answer(asked, params: request["params"] ?? .object([:])) {
                    case .success(let response): responses[key] = response
                    case .failure(let error): return .failure(.rpc(error, status: nil))
                    }
                    if Task.isCancelled { return .failure(.failed(.cancelled)) }
                }
                params["inputResponses"] = .object(responses)
            } else {
                // Nothing to ask: the server wants the request again, a moment later.
                try? await Task.sleep(for: .milliseconds(min(250, 50 << min(rounds - 1, 3))))
            }
            if let requestState = answer["requestState"] { params["requestState"] = requestState }
        }
    }

    /// Whether a `result` of the modern era is complete (or says nothing, as legacy ones do);
    /// else the failure its `resultType` is.
    static func complete(_ result: JSONValue) -> ToolServerFailure? {
        let type = result["resultType"]?.string ?? "complete"
        return type == "complete" ? nil : .unknownResultType(ServerText.line(type, limit: 40))
    }

    /// Ends the subscription, if any (the connection itself is the source's to close).
    func stopListening() {
        state.withLock { state in
            state.listening?.cancel()
            state.listening = nil
        }
    }
}

/// What chat keeps of one tool beyond its definition: how to check its structured results, and
/// whether a call may be sent again.
struct MCPToolInfo: Sendable, Equatable {
    var outputSchema: JSONValue?
    /// `annotations.idempotentHint`: calling it twice does no more than once.
    var idempotent = false
}
