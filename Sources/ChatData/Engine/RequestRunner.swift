import ChatDomain

/// The engine every provider uses: sends a provider's requests to the configured server, with
/// the key, headers and limits; sends again after a retryable failure (backoff, `Retry-After`);
/// writes `--verbose` diagnostics; reads the answer as Server-Sent Events or a whole body; and
/// maps status and transport failures to `ChatError`.
///
/// Per network read, the answer's bytes go through `SSEParser` to the provider's
/// `StreamDecoder`, lent, never copied, and the text of one read goes on as one event
/// (`TextRun`): no allocation, existential or task hop per event.
struct RequestRunner<Provider: ChatProvider>: Sendable {
    let server: ServerConfiguration
    let client: any HTTPClient
    let provider: Provider

    init(server: ServerConfiguration, client: any HTTPClient, provider: Provider) {
        self.server = server
        self.client = client
        self.provider = provider
    }

    /// The full URL of `request`.
    func url(for request: ProviderRequest) -> String {
        server.baseURL + request.path
    }

    /// Streams the answer to `request`: its events as they arrive, `.retrying` before each
    /// retry; throws a `ChatError` when it fails. Ending the consumer cancels the request.
    func streamChat(_ request: ChatRequest) -> AsyncThrowingStream<ChatEvent, any Error> {
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

    /// The body of a small response (a model list), once, without retries or diagnostics.
    func fetch(_ request: ProviderRequest) async -> Result<[UInt8], ChatError> {
        let url = url(for: request)
        do {
            let (head, body) = try await collect(client.send(httpRequest(request)))
            guard (200..<300).contains(head.status) else {
                return .failure(HTTPErrorMapper(url: url, readError: provider.errorDetail).error(for: head, body: body))
            }
            return .success(body)
        } catch {
            return .failure(transportErrors.error(for: error, midStream: false))
        }
    }

    // MARK: - One request, sent again if it fails

    private enum BodyMode {
        case undecided, eventStream, json, error
    }

    private static var bodyLimit: Int { 1 << 20 }

    private var transportErrors: TransportErrorMapper {
        TransportErrorMapper(proxyInUse: server.proxyInUse, trustStore: server.tls.trustStore)
    }

    private var diagnostics: RequestDiagnostics {
        RequestDiagnostics(
            log: server.diagnostics, proxyInUse: server.proxyInUse, keyHeader: server.keyPlacement.headerName,
            trustStore: server.tls.trustStore)
    }

    /// Sends the request, again after a retryable failure before any answer arrived, or at once
    /// in the variant the provider falls back to.
    private func run(_ request: ChatRequest, _ yield: (ChatEvent) -> Void) async throws {
        let policy = server.retry
        var variant = provider.variant(for: request)
        var fellBack = false
        var retries = 0
        while true {
            do {
                try await attempt(provider.chatRequest(for: request, variant: variant), yield)
                if fellBack { provider.fallbackWorked(variant) }
                return
            } catch let failure as AttemptFailure {
                if let next = provider.fallback(from: variant, after: failure.error, detail: failure.detail) {
                    variant = next
                    fellBack = true
                    continue
                }
                guard failure.retryable, retries < policy.maxRetries else { throw failure.error }
                let delay = policy.delay(
                    beforeRetry: retries, retryAfter: failure.retryAfter, jitter: .random(in: 0...1))
                // A server that asks for a long wait is told to the person, not slept through.
                guard delay <= policy.maxRetryAfter else { throw failure.error }
                retries += 1
                yield(.retrying(attempt: retries, limit: policy.maxRetries, delay: delay, reason: failure.summary))
                try await Task.sleep(for: .milliseconds(Int(delay * 1000)))
            }
        }
    }

    /// One request. Failures before the answer began throw `AttemptFailure`; later ones
    /// `ChatError`, since text already shown must never be shown twice.
    private func attempt(_ request: ProviderRequest, _ yield: (ChatEvent) -> Void) async throws {
        let http = httpRequest(request)
        let diagnostics = diagnostics
        diagnostics.sent(http)
        let started = MonotonicClock.nanoseconds()

        var head: HTTPResponseHead?
        var mode = BodyMode.undecided
        var collected: [UInt8] = []
        // The body's first bytes while they are only whitespace (or a BOM), until its kind shows.
        var start: [UInt8] = []
        var received = 0
        var parser = SSEParser()
        var decoder = provider.makeStreamDecoder()
        do {
            parts: for try await part in client.send(http) {
                switch part {
                case .head(let value):
                    head = value
                    mode = (200..<300).contains(value.status) ? .undecided : .error
                    diagnostics.received(value, after: started)
                case .body(var bytes):
                    received += bytes.count
                    if mode == .undecided {
                        // The body's first bytes say what it is, whatever its Content-Type says.
                        start.append(contentsOf: bytes)
                        guard let decided = Self.mode(forBodyStart: start) else { continue }
                        (mode, bytes, start) = (decided, start, [])
                    }
                    if mode == .eventStream {
                        // The text of one read goes on as one event, also when an error ends it.
                        var run = TextRun()
                        defer { run.flush(yield) }
                        try parser.push(bytes) { event in try decoder.decode(event) { run.add($0, yield) } }
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
        } catch DataError.transport(TransportErrorMapper.unsupportedEncodingCode, _) {
            throw ChatError.unsupportedEncoding(head?.header("content-encoding") ?? "an unknown encoding")
        } catch {
            let answering = head.map { (200..<300).contains($0.status) } ?? false
            let chatError = transportErrors.error(for: error, midStream: answering)
            guard !answering else { throw chatError }
            throw AttemptFailure(
                error: chatError, retryable: TransportErrorMapper.isRetryable(error), retryAfter: nil,
                summary: String(describing: error).excerpt(limit: 80))
        }
        try Task.checkCancellation()
        diagnostics.body(received, after: started)

        guard let head else { throw ChatError.malformedResponse("the server sent no response") }
        switch mode {
        case .error:
            let detail = provider.errorDetail(in: collected)
            let mapper = HTTPErrorMapper(url: url(for: request), readError: { _ in detail })
            throw AttemptFailure(head: head, error: mapper.error(for: head, body: collected), detail: detail)
        case .json:
            try provider.decodeWhole(collected, yield)
        case .eventStream, .undecided:
            parser.finish()
            guard decoder.isComplete else {
                throw ChatError.streamCut("the connection closed before the answer was complete")
            }
        }
    }

    /// What a 2xx body is, from its first bytes: a JSON value (`{` or `[`: a whole answer, or an
    /// error) or else an event stream; nil while there are only whitespace and a byte order mark.
    /// A label is not trusted: some proxies call an event stream `application/json`.
    private static func mode(forBodyStart bytes: [UInt8]) -> BodyMode? {
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        if index == 0 && (bytes == [0xEF] || bytes == [0xEF, 0xBB]) { return nil }
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        guard index < bytes.count else { return nil }
        return bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "[") ? .json : .eventStream
    }

    /// `request` as sent to the server: its address, the key as the server wants it, the
    /// provider's header fields, then the configured ones, and the transfer limits.
    private func httpRequest(_ request: ProviderRequest) -> HTTPRequest {
        var headers: [(name: String, value: String)] = [("Accept", request.accept)]
        if request.body != nil { headers.append(("Content-Type", "application/json")) }
        if let key = server.apiKey, !key.isEmpty { headers.append(server.keyPlacement.field(for: key)) }
        headers.append(contentsOf: request.headers)
        headers.append(contentsOf: server.headers)
        return HTTPRequest(
            method: request.method, url: url(for: request), headers: headers, body: request.body,
            connectTimeout: server.connectTimeout, idleTimeout: server.idleTimeout,
            proxy: server.proxy, acceptCompression: request.acceptCompression, tls: server.tls)
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
}
