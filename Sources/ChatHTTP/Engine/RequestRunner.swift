import ChatDomain

/// The engine every provider uses: sends a provider's requests to the configured server, with
/// the key, headers and limits; sends again after a retryable failure (backoff, `Retry-After`);
/// writes `--verbose` diagnostics; reads the answer as Server-Sent Events or a whole body; and
/// maps status and transport failures to `ChatError`.
///
/// An answer is read in its consumer's task (`AnswerReader`): whatever bytes arrived since the
/// last read go through `SSEParser` to the provider's `StreamDecoder`, lent, never copied, and
/// their text goes on as one event (`TextRun`): no allocation, existential or task hop per event.
///
/// It is the `GPTRepository` for a server that speaks `Provider`'s API; `ServerGPTRepository`
/// chooses the provider.
package struct RequestRunner<Provider: ChatProvider>: GPTRepository {
    let server: ServerConfiguration
    let client: any HTTPClient
    let provider: Provider
    /// Where a reader prefers to run (see `AnswerReader`).
    let readingExecutor: ConsumerExecutor

    /// The engine for `provider`'s API at `server`, through `client`.
    package init(
        server: ServerConfiguration, client: any HTTPClient, provider: Provider,
        readingExecutor: ConsumerExecutor = .shared
    ) {
        self.server = server
        self.client = client
        self.provider = provider
        self.readingExecutor = readingExecutor
    }

    /// The full URL of `request`.
    func url(for request: ProviderRequest) -> String {
        guard request.fromOrigin else { return server.baseURL + request.path }
        // The origin: the scheme, `://` and what follows up to the next `/`.
        let base = Array(server.baseURL.utf8)
        let slash = UInt8(ascii: "/")
        guard let colon = base.indices.first(where: { base[$0...].starts(with: "://".utf8) }) else {
            return server.baseURL + request.path
        }
        let path = base[(colon + 3)...].firstIndex(of: slash) ?? base.endIndex
        return String(decoding: base[..<path], as: UTF8.self) + request.path
    }

    /// The context window of `model` as the server says it: each of the provider's places to
    /// look, in order, until one says (no retries, no diagnostics; a failure says nothing). Only
    /// a server on this machine or the local network is asked (llama.cpp, vLLM, Ollama): a
    /// remote one's model list can be large, and every run would pay a round trip or two.
    package func contextWindow(of model: String) async -> Int? {
        guard URLHost.isNearby(server.baseURL) else { return nil }
        // Asked side by side (one wait, not one each), the first query's figure preferred.
        let queries = provider.contextWindowQueries
        let bodies = await withTaskGroup(of: (Int, [UInt8]?).self) { group -> [[UInt8]?] in
            for (index, query) in queries.enumerated() {
                group.addTask {
                    guard case .success(let body) = await fetch(query.request) else { return (index, nil) }
                    return (index, body)
                }
            }
            var bodies = [[UInt8]?](repeating: nil, count: queries.count)
            for await (index, body) in group { bodies[index] = body }
            return bodies
        }
        for (query, body) in zip(queries, bodies) {
            if let body, let tokens = query.read(body, model), tokens > 0 { return tokens }
        }
        return nil
    }

    /// The answer to `request`: its events as they arrive, `.retrying` before each retry. The
    /// request leaves at once; the answer is read in the task that reads it.
    package func streamChat(_ request: ChatRequest) -> any AnswerStream {
        AnswerReader(runner: self, request: request)
    }

    /// The body of a small response (a model list), once, without retries or diagnostics.
    func fetch(_ request: ProviderRequest) async -> Result<[UInt8], ChatError> {
        let url = url(for: request)
        var head: HTTPResponseHead?
        do {
            let body = try await collect(client.send(httpRequest(request)), head: &head)
            guard let head else { throw ChatError.malformedResponse("the server sent no response") }
            guard (200..<300).contains(head.status) else {
                return .failure(HTTPErrorMapper(url: url, readError: provider.errorDetail).error(for: head, body: body))
            }
            return .success(body)
        } catch {
            return .failure(
                transportErrors.error(for: error, midStream: false, contentEncoding: head?.header("content-encoding")))
        }
    }

    /// Gets a connection to the server ready in the background for the first chat request (see
    /// `HTTPClient.preconnect`).
    package func preconnect() {
        client.preconnect(
            httpRequest(ProviderRequest(method: "POST", path: provider.chatPath, accept: "text/event-stream", body: []))
        )
    }

    var transportErrors: TransportErrorMapper {
        TransportErrorMapper(proxyInUse: server.proxyInUse, trustStore: server.tls.trustStore)
    }

    var diagnostics: RequestDiagnostics {
        RequestDiagnostics(
            log: server.diagnostics, proxyInUse: server.proxyInUse, keyHeader: server.keyPlacement.headerName,
            trustStore: server.tls.trustStore)
    }

    /// `request` as sent to the server: its address, the key as the server wants it, the
    /// provider's header fields, then the configured ones, and the transfer limits.
    func httpRequest(_ request: ProviderRequest) -> HTTPRequest {
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
    private func collect(_ stream: HTTPResponseStream, head: inout HTTPResponseHead?) async throws -> [UInt8] {
        var body: [UInt8] = []
        for try await part in stream {
            switch part {
            case .head(let received): head = received
            case .body(let bytes): body.append(contentsOf: bytes)
            }
        }
        try Task.checkCancellation()
        return body
    }
}
