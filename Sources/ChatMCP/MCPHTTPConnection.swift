import ChatDomain
import ChatHTTP
import ChatJSON
import ChatOAuth
import ChatSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// JSON-RPC 2.0 with an MCP server over Streamable HTTP (MCP 2025-03-26 and later), through
/// chat's own HTTP client (libcurl, whose handle pool keeps one connection to the server).
///
/// Each message is a POST to the endpoint, accepting `application/json` and
/// `text/event-stream`: a request's answer is one JSON message or an event stream that may carry
/// the server's own requests (answered by its `MCPInbound`) and notifications before the
/// response; a notification or a response of chat's is accepted with `202`.
///
/// A request of the modern era (2026-07-28) carries `MCP-Protocol-Version` (its version),
/// `Mcp-Method` and, for the methods that name something, `Mcp-Name`; no session, and a request
/// given up is cancelled by closing its stream. In the legacy era, the `Mcp-Session-Id` the
/// server gives at `initialize` goes with every later request, with `MCP-Protocol-Version` once
/// agreed; a `404` to a request with a session id means the session expired, and it is opened
/// again once. `close()` ends the session (`DELETE`). An error status whose body is a JSON-RPC
/// error is that error (a modern server's way of refusing a request), with its status.
///
/// The configured header values are secrets: a server's text in a failure has them replaced, and
/// the `--verbose` lines show them redacted. Problems name the endpoint as `place`: no
/// credentials, query or fragment.
///
/// A server that asks for a sign-in (OAuth, `network.signIn`; not one whose entry sends an
/// `Authorization` of its own) gets `Authorization: Bearer` from its `BearerTokenProvider` on
/// every request to its own origin, never another; a 401 or 403 is settled by the provider
/// (a refresh, or a sign-in after a yes) outside the request's time limit, and the request sent
/// once more; one it cannot settle fails as `signInNeeded`. So a server's era is probed only
/// once chat is signed in.
final class MCPHTTPConnection: MCPConnection {
    private struct State {
        var nextID = 0
        var sessionID: String?
        var protocolVersion: String?
        /// The parameters `initialize` was sent with, to open an expired session again.
        var initialize: JSONValue?
        var closed = false
        /// The bearer token last sent, for the `DELETE` and to keep it out of server text.
        var token: String?
    }

    /// How one POST ended.
    private enum Outcome {
        case answer(Result<JSONValue, MCPRequestError>)
        /// A `404` to a request that carried a session id: the session is gone.
        case expired
        /// A 401 or 403 from a server chat signs in to: its status, its `WWW-Authenticate`, and
        /// the token that was sent.
        case refused(status: Int, challenge: String?, token: String?)
    }

    /// The endpoint as it may be shown: scheme, host, port and path.
    let place: String
    private let url: String
    private let headers: [(name: String, value: String)]
    /// What `redacted` takes out: the header values and their long words, longest first.
    private let secrets: [String]
    private let http: any HTTPClient
    /// The CA file that verifies an https server, and the config's proxy (nil: the environment's).
    private let tls: TLSConfiguration
    private let proxy: String?
    private let diagnostics: RequestDiagnostics
    /// How a failed transfer reads as facts (the proxy and the trust store named).
    private let transferErrors: TransportErrorMapper
    private let inbound: MCPInbound
    private let state = Mutex(State())
    /// The server's tokens, when chat signs in to it.
    private let authorization: (any BearerTokenProvider)?
    /// The origin the tokens may go to: the endpoint's.
    private let tokenOrigin: URLOrigin?

    /// The longest answer read: 64 MB, as over stdio.
    static let largestAnswer = MCPStdioConnection.lineLimit

    /// The server `entry.url`, reached through `http` with `network`'s CA file and proxy, its
    /// `--verbose` lines to `network`'s log; `inbound` handles the requests and notifications
    /// the server sends (by default: answered and dropped as no one asks).
    init(
        _ entry: MCPServerEntry, http: any HTTPClient, network: MCPNetworkSettings = MCPNetworkSettings(),
        inbound: MCPInbound? = nil
    ) {
        url = entry.url ?? ""
        place = Self.place(of: url)
        headers = entry.headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        let words = entry.headers.values.flatMap { $0.split(separator: " ").map(String.init).filter { $0.count >= 8 } }
        secrets = Set(entry.headers.values.filter { $0.count >= 4 } + words).sorted { $0.count > $1.count }
        self.http = http
        (tls, proxy) = (network.tls, network.proxy)
        diagnostics = RequestDiagnostics(
            log: network.log, proxyInUse: network.proxyInUse(for: url), keyHeader: "authorization",
            trustStore: network.tls.trustStore)
        transferErrors = TransportErrorMapper(
            proxyInUse: network.proxyInUse(for: url), trustStore: network.tls.trustStore)
        self.inbound = inbound ?? MCPInbound(server: entry.name, answerer: nil)
        authorization =
            entry.signsIn
            ? network.signIn.map { OAuthBearer(server: entry.oauthServer, settings: $0, network: network.oauth(http)) }
            : nil
        tokenOrigin = URLOrigin(url)
    }

    func request(_ request: MCPRequest) async -> Result<JSONValue, MCPRequestError> {
        let (method, timeout) = (request.method, request.timeout)
        let id = state.withLock { state in
            state.nextID += 1
            if method == "initialize" { state.initialize = request.params }
            return state.nextID
        }
        let message = MCPMessage.request(id: id, method: method, params: request.params)
        var outcome = await timed(message, request, id: id)
        // A refusal a sign-in may settle is settled outside the time limit (a person may be
        // signing in), and the request sent once more.
        if case .refused(let status, let challenge, let token)? = outcome, let authorization {
            if let failure = await authorization.settle(status: status, challenge: challenge, sent: token) {
                return .failure(.failed(.signInNeeded(failure)))
            }
            outcome = await timed(message, request, id: id)
        }
        if Task.isCancelled { return giveUp(id, request, .cancelled) }
        switch outcome {
        case nil: return giveUp(id, request, .noAnswer(seconds: timeout))
        case .refused(let status, _, _)?: return .failure(.failed(.signInNeeded(.tokenNotAccepted(status: status))))
        case .expired?: return .failure(.failed(.sessionEnded(again: false)))
        case .answer(let result)?:
            if method == "initialize", case .success(let answer) = result { agree(answer) }
            return result
        }
    }

    /// `exchange`, given up after the request's timeout (nil then); a subscription waits until it
    /// is cancelled.
    private func timed(_ message: JSONValue, _ request: MCPRequest, id: Int) async -> Outcome? {
        let timeout = request.timeout
        return await withTaskGroup(of: Outcome?.self) { group in
            group.addTask {
                await self.exchange(message, request, id: id, reopening: request.method != "initialize")
            }
            if timeout.isFinite {
                group.addTask {
                    try? await Task.sleep(for: .seconds(timeout))
                    return nil
                }
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    func notify(_ method: String, params: JSONValue) async {
        _ = await post(MCPMessage.notification(method, params: params), expecting: nil, as: nil, timeout: 10)
    }

    func closeAtExit() async -> pid_t? {
        await close()
        return nil
    }

    func close() async {
        let session = state.withLock { state -> String? in
            defer {
                state.closed = true
                state.sessionID = nil
            }
            return state.closed ? nil : state.sessionID
        }
        guard let session else { return }
        let request = makeRequest("DELETE", body: nil, timeout: 3, ending: session, token: state.withLock { $0.token })
        diagnostics.sent(shown(request))
        // The server may refuse (405), be gone or not answer: the session then ends on its own.
        // Either way chat goes on within 3 s.
        let (http, delete) = (http, request)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { do { for try await _ in http.send(delete) {} } catch {} }
            group.addTask { try? await Task.sleep(for: .seconds(3)) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Keeps the protocol version `answer` (to `initialize`) agrees on, for the requests after it.
    private func agree(_ answer: JSONValue) {
        let version = answer["protocolVersion"]?.string.flatMap(Self.visibleASCII)
        state.withLock { $0.protocolVersion = version }
    }

    /// Sends `request` as `message` (number `id`) and returns its answer (or the server's
    /// refusal of its token); a session that expired is opened again once, when `reopening`, and
    /// the request sent again in it.
    private func exchange(_ message: JSONValue, _ request: MCPRequest, id: Int, reopening: Bool) async -> Outcome {
        let session = state.withLock { $0.sessionID }
        switch await post(message, expecting: id, as: request, timeout: request.timeout) {
        case .answer(let result):
            return .answer(result)
        case .refused(let status, let challenge, let token):
            return .refused(status: status, challenge: challenge, token: token)
        case .expired:
            guard reopening, await reopen(expired: session) else {
                return .answer(.failure(.failed(.sessionEnded(again: false))))
            }
            let again = await post(message, expecting: id, as: request, timeout: request.timeout)
            switch again {
            case .answer, .refused: return again
            case .expired: return .answer(.failure(.failed(.sessionEnded(again: true))))
            }
        }
    }

    /// Opens a new session after `expired` ended (unless another request did already): the
    /// same `initialize`, then `notifications/initialized`. True if there is one.
    private func reopen(expired: String?) async -> Bool {
        let (params, id, current) = state.withLock { state in
            state.nextID += 1
            if state.sessionID == expired {
                state.sessionID = nil
                state.protocolVersion = nil
            }
            return (state.initialize, state.nextID, state.sessionID)
        }
        if current != nil { return true }
        guard let params else { return false }
        let message = MCPMessage.request(id: id, method: "initialize", params: params)
        let request = MCPRequest("initialize", params: params, timeout: 30)
        guard case .answer(.success(let answer)) = await post(message, expecting: id, as: request, timeout: 30) else {
            return false
        }
        agree(answer)
        await notify("notifications/initialized")
        return true
    }

    /// Fails the request `id` with `failure`, and tells the server it was given up: in the
    /// legacy era with `notifications/cancelled` (not for `initialize`, which the spec says is
    /// never cancelled); in the modern era its stream, closed, says so.
    private func giveUp(_ id: Int, _ request: MCPRequest, _ failure: ToolServerFailure)
        -> Result<JSONValue, MCPRequestError>
    {
        if request.method != "initialize" && request.modernVersion == nil {
            let notice = MCPMessage.cancelled(id, reason: MCPMessage.reason(failure))
            Task { _ = await post(notice, expecting: nil, as: nil, timeout: 10) }
        }
        return .failure(.failed(failure))
    }

    /// POSTs `message` (chat's request `rpc`, when it is one); when `expecting` a response to
    /// request `id`, reads the answer (JSON or an event stream) until that response, handling what
    /// else the server sends meanwhile.
    private func post(_ message: JSONValue, expecting id: Int?, as rpc: MCPRequest?, timeout: Double) async
        -> Outcome
    {
        if state.withLock({ $0.closed }) { return .answer(.failure(.failed(.stopped))) }
        guard let body = message.jsonText else { return .answer(.failure(.failed(.requestNotWritten))) }
        let token = await authorization?.token()
        if let token { state.withLock { $0.token = token } }
        let request = makeRequest("POST", body: Array(body.utf8), timeout: timeout, rpc: rpc, token: token)
        let started = MonotonicClock.nanoseconds()
        diagnostics.sent(shown(request))
        var parts = http.send(request).makeAsyncIterator()
        var headArrived = false
        do {
            guard case .head(let head)? = try await parts.next() else {
                return .answer(.failure(.failed(.emptyAnswer)))
            }
            headArrived = true
            diagnostics.received(head, after: started)
            let sentSession = request.headers.contains { $0.name == "Mcp-Session-Id" }
            if head.status == 404 && sentSession { return .expired }
            if head.status == 401 || head.status == 403, authorization != nil {
                return .refused(status: head.status, challenge: head.header("www-authenticate"), token: token)
            }
            guard (200..<300).contains(head.status) else {
                let bytes = try await Self.collect(&parts, limit: 65536)
                // A modern server refuses a request with a JSON-RPC error in the body.
                if let value = try? JSONParser.parse(bytes), let error = value["error"], error.isObject {
                    return .answer(.failure(.rpc(MCPMessage.error(error, redacting: redacted), status: head.status)))
                }
                let text = String(decoding: bytes.prefix(4096), as: UTF8.self)
                return .answer(
                    .failure(.failed(.httpStatus(head.status, body: ServerText.line(redacted(text), limit: 200)))))
            }
            guard let id else { return .answer(.success(.null)) }
            if message["method"]?.string == "initialize" {
                let session = head.header("mcp-session-id").flatMap(Self.visibleASCII)
                state.withLock { $0.sessionID = session }
            }
            switch head.mediaType {
            case "application/json": return .answer(try await readJSON(&parts, id: id))
            case "text/event-stream": return .answer(try await readEvents(&parts, id: id))
            default:
                let type = head.mediaType.isEmpty ? nil : ServerText.line(head.mediaType, limit: 60)
                return .answer(.failure(.failed(.notJSON(mediaType: type))))
            }
        } catch let error as DataError {
            // Once the answer had begun, the request had reached the server: its answer broke.
            let failure = ToolServerFailure.transfer(transferErrors.error(for: error, midStream: headArrived))
            return .answer(.failure(.failure(failure, broken: headArrived)))
        } catch {
            return .answer(.failure(.failed(.requestStopped)))
        }
    }

    /// An `application/json` answer: one message, or a batch of them.
    private func readJSON(_ parts: inout HTTPResponseStream.Iterator, id: Int) async throws
        -> Result<JSONValue, MCPRequestError>
    {
        let bytes = try await Self.collect(&parts, limit: Self.largestAnswer)
        guard bytes.count < Self.largestAnswer else {
            return .failure(.failed(.answerTooLong(megabytes: Self.largestAnswer / 1_048_576, event: false)))
        }
        guard let value = try? JSONParser.parse(bytes) else { return .failure(.failed(.answerNotJSON)) }
        var answer: Result<JSONValue, MCPRequestError>?
        for message in value.array ?? [value] {
            if let result = take(message, id: id) { answer = result }
        }
        return answer ?? .failure(.failed(.noResponse))
    }

    /// A `text/event-stream` answer: the events up to the response to request `id`.
    private func readEvents(_ parts: inout HTTPResponseStream.Iterator, id: Int) async throws
        -> Result<JSONValue, MCPRequestError>
    {
        var parser = SSEParser()
        var answer: Result<JSONValue, MCPRequestError>?
        var pending = 0
        while answer == nil, let part = try await parts.next() {
            guard case .body(let bytes) = part else { continue }
            pending += bytes.count
            parser.push(bytes) { event in
                pending = 0
                guard answer == nil, let value = try? JSONParser.parse(event.data) else { return }
                answer = take(value, id: id)
            }
            if pending > Self.largestAnswer {
                return .failure(.failed(.answerTooLong(megabytes: Self.largestAnswer / 1_048_576, event: true)))
            }
        }
        // The server ends the stream after the response: its last bytes may keep the connection.
        parts.stopReading()
        // Ended before the response: the request had reached the server, and its answer broke.
        return answer ?? .failure(.failure(.streamEndedEarly, broken: true))
    }

    /// Handles one message from the server: the response to request `id` is returned; a request
    /// of the server's is answered (in a POST of its own), a notification passed on.
    private func take(_ value: JSONValue, id: Int) -> Result<JSONValue, MCPRequestError>? {
        switch MCPMessage(value, redacting: redacted) {
        case .response(let number, let result) where number == id:
            return result.mapError { .rpc($0, status: nil) }
        case .request(let requestID, let method, let params):
            let inbound = inbound
            Task {
                let answer = MCPMessage.answer(await inbound.answer(method, params: params), id: requestID)
                _ = await post(answer, expecting: nil, as: nil, timeout: 10)
            }
        case .notification(let method, let params):
            inbound.notification(method, params: params)
        case .response, nil:
            break
        }
        return nil
    }

    /// A request to the endpoint with the protocol's header fields (of `rpc`'s era, when it is
    /// chat's request), the session's, the bearer `token` (only to the endpoint's own origin) and
    /// the configured ones; with `ending`, the request that ends that session (no body, no answer
    /// asked for). Every header field a request carries is decided here.
    private func makeRequest(
        _ method: String, body: [UInt8]?, timeout: Double, rpc: MCPRequest? = nil, ending: String? = nil,
        token: String?
    ) -> HTTPRequest {
        let (current, agreed) = state.withLock { ($0.sessionID, $0.protocolVersion) }
        var fields: [(name: String, value: String)] =
            ending == nil
            ? [("Content-Type", "application/json"), ("Accept", "application/json, text/event-stream")] : []
        if let rpc, let version = rpc.modernVersion {
            // The modern era: no session; the version and the method (and what it names) in
            // header fields of their own, equal to the body's.
            fields.append(("MCP-Protocol-Version", version))
            fields.append(("Mcp-Method", rpc.method))
            if let name = rpc.name { fields.append(("Mcp-Name", MCPHeaderValue.encode(name))) }
        } else {
            if let session = ending ?? current { fields.append(("Mcp-Session-Id", session)) }
            if let agreed { fields.append(("MCP-Protocol-Version", agreed)) }
        }
        if let token, let origin = URLOrigin(url), origin == tokenOrigin {
            fields.append(("Authorization", "Bearer " + token))
        }
        // A DELETE carries no body and asks for none: no Content-Type or Accept, configured or not.
        let own = Set(fields.map { $0.name.lowercased() } + (ending == nil ? [] : ["content-type", "accept"]))
        fields += headers.filter { !own.contains($0.name.lowercased()) }
        return HTTPRequest(
            method: method, url: url, headers: fields, body: body, connectTimeout: min(timeout, 30),
            // A subscription's stream may be quiet for long: a day without a byte ends it.
            idleTimeout: timeout.isFinite ? timeout + 5 : 86400, proxy: proxy, tls: tls)
    }

    /// `request` as the `--verbose` lines may show it: the endpoint as `place`, every configured
    /// header's value redacted.
    private func shown(_ request: HTTPRequest) -> HTTPRequest {
        var shown = request
        shown.url = place
        let secret = Set(headers.map { $0.name.lowercased() } + ["authorization"])
        shown.headers = request.headers.map { secret.contains($0.name.lowercased()) ? ($0.name, "[redacted]") : $0 }
        return shown
    }

    /// `text` with every configured header value, and each long word of one (the token of
    /// `Bearer <token>`), taken out: before any cut, so that no part of one is left.
    private func redacted(_ text: String) -> String {
        var text = text
        for secret in secrets { text = text.replacing(secret, with: "[redacted]") }
        if let token = state.withLock({ $0.token }), !token.isEmpty { text = text.replacing(token, with: "[redacted]") }
        return text
    }

    /// The body's bytes, at most `limit` (and the piece that crossed it).
    private static func collect(_ parts: inout HTTPResponseStream.Iterator, limit: Int) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        while bytes.count < limit, let part = try await parts.next() {
            if case .body(let piece) = part { bytes += piece }
        }
        return bytes
    }

    /// `text` if it is one or more visible ASCII characters (a header value that cannot smuggle
    /// a line of its own), else nil.
    private static func visibleASCII(_ text: String) -> String? {
        !text.isEmpty && text.utf8.allSatisfy { (0x21...0x7E).contains($0) } ? text : nil
    }

    /// `url` without its credentials, query and fragment, made safe to show.
    static func place(of url: String) -> String {
        URLPlace.of(url)
    }
}
