import ChatDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `GPTRepository` for OpenAI-compatible servers: `POST /chat/completions` streamed as
/// Server-Sent Events (or answered whole), and `GET /models`.
public struct OpenAIGPTRepository: GPTRepository {
    private let server: ServerConfiguration
    private let client: any HTTPClient
    private let state = RepositoryState()

    /// Creates a repository that reaches `server` through `client`.
    public init(server: ServerConfiguration, client: CurlHTTPClient) {
        self.init(server: server, transport: client)
    }

    init(server: ServerConfiguration, transport: any HTTPClient) {
        self.server = server
        self.client = transport
    }

    public func streamChat(_ request: ChatRequest) -> AsyncThrowingStream<ChatEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream<ChatEvent, any Error>.makeStream()
        let task = Task {
            do {
                try await run(request) { continuation.yield($0) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    public func listModels() async -> Result<[ModelInfo], ChatError> {
        let url = server.baseURL + "/models"
        let request = httpRequest(method: "GET", url: url, accept: "application/json", body: nil, compressed: true)
        do {
            let (head, body) = try await collect(client.send(request))
            guard (200..<300).contains(head.status) else {
                return .failure(HTTPErrorMapper(url: url).error(for: head, body: body))
            }
            guard let list = try? JSON.decode(ModelListDTO.self, from: body, using: JSON.decoder()) else {
                return .failure(.malformedResponse("GET \(url) did not answer with a model list"))
            }
            return .success(list.toDomain())
        } catch {
            return .failure(Self.chatError(error, midStream: false))
        }
    }

    // MARK: - One request

    private enum BodyMode {
        case undecided, eventStream, json, error
    }

    private func run(_ request: ChatRequest, _ yield: (ChatEvent) -> Void) async throws {
        var includeUsage = request.settings.stream && !state.streamOptionsRejected.load(ordering: .relaxed)
        while true {
            var yielded = false
            do {
                try await attempt(request, includeUsage: includeUsage) { event in
                    yielded = true
                    yield(event)
                }
                return
            } catch ChatError.badRequest(400, _) where includeUsage && !yielded {
                // Some servers reject `stream_options`; ask once more without it, and if that
                // works, leave it out for the rest of the run.
                includeUsage = false
                try await attempt(request, includeUsage: false, yield)
                state.streamOptionsRejected.store(true, ordering: .relaxed)
                return
            }
        }
    }

    private func attempt(_ request: ChatRequest, includeUsage: Bool, _ yield: (ChatEvent) -> Void) async throws {
        let url = server.baseURL + "/chat/completions"
        let dto = ChatCompletionRequestDTO(request, includeUsage: includeUsage)
        let body: [UInt8]
        do {
            body = Array(try JSON.encoder().encode(dto))
        } catch {
            throw ChatError.malformedResponse("could not encode the request: \(error)")
        }
        let accept = request.settings.stream ? "text/event-stream" : "application/json"
        let http = httpRequest(method: "POST", url: url, accept: accept, body: body, compressed: false)

        var head: HTTPResponseHead?
        var mode = BodyMode.undecided
        var collected: [UInt8] = []
        var parser = SSEParser()
        var decoder = ChatStreamDecoder()
        do {
            parts: for try await part in client.send(http) {
                switch part {
                case .head(let received):
                    head = received
                    mode = Self.mode(for: received)
                case .body(let bytes):
                    if mode == .undecided {
                        mode = bytes.first(where: { $0 > 0x20 }) == UInt8(ascii: "{") ? .json : .eventStream
                    }
                    if mode == .eventStream {
                        try parser.push(bytes) { event in try decoder.decode(event, yield) }
                        if decoder.isDone { break parts }
                    } else if collected.count < Self.bodyLimit {
                        collected.append(contentsOf: bytes)
                    }
                }
            }
        } catch let error as ChatError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw Self.chatError(error, midStream: head.map { (200..<300).contains($0.status) } ?? false)
        }
        try Task.checkCancellation()

        guard let head else { throw ChatError.malformedResponse("the server sent no response") }
        switch mode {
        case .error:
            throw HTTPErrorMapper(url: url).error(for: head, body: collected)
        case .json:
            try decodeWhole(collected, yield)
        case .eventStream, .undecided:
            parser.finish()
            guard decoder.isComplete else {
                throw ChatError.streamCut("the connection closed before the answer was complete")
            }
        }
    }

    /// A 200 whose body is JSON: a whole completion, or an error.
    private func decodeWhole(_ body: [UInt8], _ yield: (ChatEvent) -> Void) throws {
        let decoder = JSON.decoder()
        if let detail = (try? JSON.decode(APIErrorDTO.self, from: body, using: decoder))?.detail {
            throw ChatError.streamError(message: detail.message)
        }
        guard let completion = try? JSON.decode(ChatCompletionDTO.self, from: body, using: decoder),
            completion.choices?.isEmpty == false
        else {
            let text = String(decoding: body.prefix(200), as: UTF8.self)
            throw ChatError.malformedResponse("the answer is neither an event stream nor a completion: \(text)")
        }
        completion.forEachEvent(yield)
    }

    private static let bodyLimit = 1 << 20

    private static func mode(for head: HTTPResponseHead) -> BodyMode {
        guard (200..<300).contains(head.status) else { return .error }
        let type = head.mediaType
        if type == "text/event-stream" { return .eventStream }
        if type.contains("json") { return .json }
        return .undecided
    }

    private func httpRequest(method: String, url: String, accept: String, body: [UInt8]?, compressed: Bool)
        -> HTTPRequest
    {
        var headers: [(name: String, value: String)] = [("Accept", accept)]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        if let key = server.apiKey, !key.isEmpty { headers.append(("Authorization", "Bearer \(key)")) }
        headers.append(contentsOf: server.headers)
        return HTTPRequest(
            method: method, url: url, headers: headers, body: body,
            connectTimeout: server.connectTimeout, idleTimeout: server.idleTimeout,
            proxy: server.proxy, acceptCompression: compressed)
    }

    /// Reads a whole (small) response.
    private func collect(_ stream: AsyncThrowingStream<HTTPStreamPart, any Error>) async throws
        -> (HTTPResponseHead, [UInt8])
    {
        var head: HTTPResponseHead?
        var body: [UInt8] = []
        for try await part in stream {
            switch part {
            case .head(let received): head = received
            case .body(let bytes): body.append(contentsOf: bytes)
            }
        }
        try Task.checkCancellation()
        guard let head else { throw ChatError.malformedResponse("the server sent no response") }
        return (head, body)
    }

    /// Words a transport failure for the person; `midStream` when an answer had begun.
    static func chatError(_ error: any Error, midStream: Bool) -> ChatError {
        if let error = error as? ChatError { return error }
        if error is CancellationError { return .cancelled }
        guard let error = error as? DataError else { return .connection(String(describing: error)) }
        switch error {
        case .connectTimeout(let seconds): return .connectTimeout(seconds: seconds)
        case .idleTimeout(let seconds): return .idleTimeout(seconds: seconds)
        case .transport(let code, let message):
            if midStream { return .streamCut(message) }
            return .connection(message + Self.transportHint(code: code))
        default: return .connection(error.description)
        }
    }

    private static func transportHint(code: Int) -> String {
        switch code {
        case 5: return " (check the proxy setting: proxy in the config, or https_proxy/HTTPS_PROXY/ALL_PROXY)"
        case 6: return " (check the host name in the base URL)"
        case 7: return " (is the server running, and is the base URL's port right?)"
        case 35, 60: return " (the TLS handshake failed; check the URL's scheme and the server's certificate)"
        default: return ""
        }
    }
}
