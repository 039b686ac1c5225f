import ChatDomain
import ChatTestSupport
import Foundation
import Testing

@testable import ChatHTTP
@testable import ChatProviders

/// `ServerGPTRepository` for an OpenAI-compatible server, over a real `CurlHTTPClient` against
/// the loopback server.
@Suite(.onOwnThread) struct ServerGPTRepositoryTests {
    // MARK: Streamed answers

    @Test func streamedAnswerYieldsTextInOrderThenFinishAndUsage() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.sse(
                [
                    ServerStep.chatChunk("Hel"), ServerStep.chatChunk("lo, "), ServerStep.chatChunk("wörld 🎉"),
                    ServerStep.finishChunk(), ServerStep.usageChunk(prompt: 12, completion: 3),
                ], pause: 0.02)
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.collect(Self.repository(server).streamChat(Self.request()))
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(
            result.events == [
                .text("Hello, wörld 🎉"), .finished(reason: "stop"),
                .usage(TokenUsage(promptTokens: 12, completionTokens: 3, model: "loopback-model")),
            ])
    }

    @Test func streamingRequestCarriesModelMessagesStreamOptionsAndHeaders() async throws {
        let server = try LoopbackServer { _, _ in ServerStep.sse([ServerStep.finishChunk()]) }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let repository = Self.repository(
            server, apiKey: "KEY", headers: [(name: "api-key", value: "azure-secret"), (name: "X-Team", value: "blue")])
        var request = Self.request()
        request.settings.sampling[.temperature] = .number(0.5)
        request.settings.sampling[.maxTokens] = .wholeNumber(64)
        let result = await Self.collect(repository.streamChat(request))
        #expect(result.error == nil, "\(String(describing: result.error))")

        let recorded = try #require(server.requests.first)
        #expect(server.requests.count == 1)
        #expect(recorded.method == "POST")
        #expect(recorded.path == "/v1/chat/completions")
        #expect(recorded.header("Authorization") == "Bearer KEY")
        #expect(recorded.header("Accept") == "text/event-stream")
        #expect(recorded.header("Content-Type") == "application/json")
        #expect(recorded.header("api-key") == "azure-secret")
        #expect(recorded.header("X-Team") == "blue")
        // Compression holds events back: a stream is asked for uncompressed.
        #expect(recorded.header("Accept-Encoding") == "identity")

        let body = try Self.json(recorded)
        #expect(body["model"] as? String == "test-model")
        #expect(
            body["messages"] as? [[String: String]] == [
                ["role": "system", "content": "Be brief."], ["role": "user", "content": "Say \"hello\" ü"],
            ])
        #expect(recorded.bodyText.contains(#""stream":true"#))
        #expect((body["stream_options"] as? [String: Any])?["include_usage"] as? Bool == true)
        #expect(recorded.bodyText.contains(#""stream_options":{"include_usage":true}"#))
        #expect(body["temperature"] as? Double == 0.5)
        #expect(body["max_tokens"] as? Int == 64)
    }

    @Test func noAPIKeySendsNoAuthorizationHeader() async throws {
        let server = try LoopbackServer { _, _ in ServerStep.sse([ServerStep.finishChunk()]) }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let withoutKey = await Self.collect(Self.repository(server, apiKey: nil).streamChat(Self.request()))
        let emptyKey = await Self.collect(Self.repository(server, apiKey: "").streamChat(Self.request()))
        #expect(withoutKey.error == nil)
        #expect(emptyKey.error == nil)
        let requests = server.requests
        try #require(requests.count == 2)
        #expect(requests[0].header("Authorization") == nil)
        #expect(requests[1].header("Authorization") == nil)
        #expect(requests[0].header("Accept") == "text/event-stream")
    }

    // MARK: Error statuses

    @Test func unauthorizedJSONThrowsUnauthorizedWithTheServersMessage() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.json(
                status: 401,
                #"{"error":{"message":"Incorrect API key provided: sk-****","type":"invalid_request_error","#
                    + #""code":"invalid_api_key"}}"#)
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.collect(Self.repository(server).streamChat(Self.request()))
        #expect(result.events.isEmpty)
        #expect(result.error as? ChatError == .unauthorized(message: "Incorrect API key provided: sk-****"))
    }

    @Test func notFoundNamesTheRequestedURL() async throws {
        let server = try LoopbackServer { _, _ in
            [
                .head(
                    status: 404, headers: [("Content-Type", "text/plain"), ("Content-Length", "18")], chunked: false),
                .text("404 page not found"), .end,
            ]
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.collect(Self.repository(server).streamChat(Self.request()))
        guard case .notFound(let url, let message, let clue) = result.error as? ChatError else {
            Issue.record("expected notFound, got \(String(describing: result.error))")
            return
        }
        #expect(url == server.baseURL + "/chat/completions")
        #expect(message == "404 page not found")
        #expect(clue == .unknown)
    }

    @Test func tooManyRequestsCarriesRetryAfter() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.json(
                status: 429,
                #"{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}"#,
                headers: [("Retry-After", "7")])
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.collect(Self.repository(server).streamChat(Self.request()))
        #expect(
            result.error as? ChatError
                == .rateLimited(retryAfter: 7, quotaExceeded: false, message: "Rate limit reached"))
    }

    @Test func badGatewayHTMLPageBecomesServerErrorWithoutTheHTML() async throws {
        let page =
            "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center>"
            + "<hr><center>nginx/1.25.3</center></body></html>"
        let server = try LoopbackServer { _, _ in
            [.head(status: 502, headers: [("Content-Type", "text/html")], chunked: false), .text(page), .end]
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.collect(Self.repository(server).streamChat(Self.request()))
        guard case .server(let status, let message) = result.error as? ChatError else {
            Issue.record("expected server error, got \(String(describing: result.error))")
            return
        }
        #expect(status == 502)
        #expect(!message.contains("<"))
        #expect(!message.contains("nginx"))
        #expect(message.contains("HTML"))
    }

    // MARK: How a stream ends

    @Test func serverClosingMidStreamDeliversTheTextThenThrowsStreamCut() async throws {
        let server = try LoopbackServer { _, _ in
            [
                .head(status: 200, headers: [("Content-Type", "text/event-stream")], chunked: true),
                .text("data: \(ServerStep.chatChunk("Hel"))\n\n"), .pause(0.05),
                .text("data: \(ServerStep.chatChunk("lo"))\n\n"), .pause(0.05), .close,
            ]
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.collect(Self.repository(server).streamChat(Self.request()))
        #expect(result.events == [.text("Hello")])
        guard case .streamCut = result.error as? ChatError else {
            Issue.record("expected streamCut, got \(String(describing: result.error))")
            return
        }
    }

    @Test func endOfStreamAfterFinishReasonWithoutDoneCompletesNormally() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.sse([ServerStep.chatChunk("Hi"), ServerStep.finishChunk("length")], done: false)
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.collect(Self.repository(server).streamChat(Self.request()))
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.events == [.text("Hi"), .finished(reason: "length")])
    }

    @Test func endOfStreamWithNeitherFinishReasonNorDoneThrowsStreamCut() async throws {
        let server = try LoopbackServer { _, _ in ServerStep.sse([ServerStep.chatChunk("Hi")], done: false) }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.collect(Self.repository(server).streamChat(Self.request()))
        #expect(result.events == [.text("Hi")])
        guard case .streamCut = result.error as? ChatError else {
            Issue.record("expected streamCut, got \(String(describing: result.error))")
            return
        }
    }

    @Test func anythingAfterDoneIsIgnored() async throws {
        let server = try LoopbackServer { _, _ in
            [
                .head(status: 200, headers: [("Content-Type", "text/event-stream")], chunked: true),
                .text("data: \(ServerStep.chatChunk("Hi"))\n\n"),
                .text("data: [DONE]\n\ndata: {not json at all\n\n"), .pause(0.05),
                .text("data: {\"error\":{\"message\":\"too late\"}}\n\ngarbage"), .close,
            ]
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.collect(Self.repository(server).streamChat(Self.request()))
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.events == [.text("Hi")])
    }

    @Test func errorObjectMidStreamThrowsStreamErrorAfterEarlierText() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.sse(
                [
                    ServerStep.chatChunk("Partial"), ServerStep.chatChunk(" answer"),
                    #"{"error":{"message":"The model is overloaded","type":"server_error"}}"#,
                    ServerStep.chatChunk("never"),
                ], pause: 0.02)
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.collect(Self.repository(server).streamChat(Self.request()))
        #expect(result.events == [.text("Partial answer")])
        #expect(result.error as? ChatError == .streamError(message: "The model is overloaded"))
    }

    // MARK: Whole answers

    @Test func jsonCompletionToAStreamingRequestYieldsTextAndFinish() async throws {
        let server = try LoopbackServer { _, _ in ServerStep.json(status: 200, Self.completionJSON) }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.collect(Self.repository(server).streamChat(Self.request()))
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(
            result.events == [
                .text("Hello there"), .finished(reason: "stop"),
                .usage(TokenUsage(promptTokens: 5, completionTokens: 2, model: "test-model")),
            ])
    }

    @Test func nonStreamingRequestSendsStreamFalseWithoutStreamOptions() async throws {
        let server = try LoopbackServer { _, _ in ServerStep.json(status: 200, Self.completionJSON) }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.collect(Self.repository(server).streamChat(Self.request(stream: false)))
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.events.first == .text("Hello there"))
        #expect(result.events.contains(.finished(reason: "stop")))
        let recorded = try #require(server.requests.first)
        #expect(recorded.bodyText.contains(#""stream":false"#))
        #expect(!recorded.bodyText.contains("stream_options"))
        #expect(try Self.json(recorded)["stream"] as? Bool == false)
        #expect(recorded.header("Accept") == "application/json")
    }

    // MARK: Servers that reject stream_options

    @Test func badRequestToStreamOptionsIsRetriedOnceWithoutAndRemembered() async throws {
        let server = try LoopbackServer { _, index in
            index == 0
                ? ServerStep.json(
                    status: 400,
                    #"{"error":{"message":"Unrecognized request argument supplied: stream_options","#
                        + #""type":"invalid_request_error"}}"#)
                : ServerStep.sse([ServerStep.chatChunk("ok \(index)"), ServerStep.finishChunk()])
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let repository = Self.repository(server)
        let first = await Self.collect(repository.streamChat(Self.request()))
        #expect(first.error == nil, "\(String(describing: first.error))")
        #expect(first.events == [.text("ok 1"), .finished(reason: "stop")])
        #expect(server.requests.count == 2)

        let second = await Self.collect(repository.streamChat(Self.request()))
        #expect(second.error == nil, "\(String(describing: second.error))")
        #expect(second.events == [.text("ok 2"), .finished(reason: "stop")])

        let bodies = server.requests.map(\.bodyText)
        try #require(bodies.count == 3)
        #expect(bodies[0].contains("stream_options"))
        #expect(!bodies[1].contains("stream_options"))
        #expect(bodies[1].contains(#""stream":true"#))
        #expect(!bodies[2].contains("stream_options"))
        #expect(bodies[2].contains(#""stream":true"#))
    }

    // Changed by issue 17: a 400 that does not name stream_options is sent once (it was sent
    // twice, the second time without stream_options, whatever the 400 said).
    @Test(arguments: [
        #"{"error":{"message":"messages must not be empty"}}"#,
        #"{"error":{"message":"temperature must be at most 2","type":"invalid_request_error","param":"temperature"}}"#,
        #"{"error":{"message":"This model's maximum context length is 8192 tokens.","code":"context_length_exceeded"}}"#,
    ])
    func badRequestThatDoesNotNameStreamOptionsIsSentOnce(body: String) async throws {
        let server = try LoopbackServer { _, _ in ServerStep.json(status: 400, body) }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let repository = Self.repository(server)
        let result = await Self.collect(repository.streamChat(Self.request()))
        guard case .badRequest(400, _)? = result.error as? ChatError else {
            Issue.record("expected a 400, got \(String(describing: result.error))")
            return
        }
        #expect(server.requests.count == 1)
        #expect(server.requests.first?.bodyText.contains("stream_options") == true)
    }

    @Test(arguments: [
        #"{"error":{"message":"Extra inputs are not permitted","type":"invalid_request_error","param":"stream_options"}}"#,
        #"{"error":{"message":"unknown field","param":"stream_options.include_usage"}}"#,
        #"{"object":"error","message":"[{'loc': ('body', 'stream_options'), 'msg': 'extra fields not permitted'}]"}"#,
    ])
    func badRequestNamingStreamOptionsIsSentAgainWithoutThem(body: String) async throws {
        let server = try LoopbackServer { _, index in
            index == 0
                ? ServerStep.json(status: 400, body)
                : ServerStep.sse([ServerStep.chatChunk("ok"), ServerStep.finishChunk()])
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.collect(Self.repository(server).streamChat(Self.request()))
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.events == [.text("ok"), .finished(reason: "stop")])
        let bodies = server.requests.map(\.bodyText)
        try #require(bodies.count == 2)
        #expect(!bodies[1].contains("stream_options"))
    }

    @Test func badRequestNamingStreamOptionsTwiceIsThrownAfterTwoRequests() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.json(status: 400, #"{"error":{"message":"bad","param":"stream_options"}}"#)
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let repository = Self.repository(server)
        let result = await Self.collect(repository.streamChat(Self.request()))
        #expect(result.error as? ChatError == .badRequest(status: 400, message: "bad"))
        #expect(server.requests.count == 2)
        // Leaving them out did not help, so they were not to blame: the next request sends them again.
        _ = await Self.collect(repository.streamChat(Self.request()))
        let bodies = server.requests.map(\.bodyText)
        try #require(bodies.count == 4)
        #expect(bodies[2].contains("stream_options"))
    }

    @Test func badRequestWithoutStreamOptionsIsNotRetried() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.json(status: 400, #"{"error":{"message":"temperature out of range"}}"#)
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.collect(Self.repository(server).streamChat(Self.request(stream: false)))
        #expect(result.error as? ChatError == .badRequest(status: 400, message: "temperature out of range"))
        #expect(server.requests.count == 1)
    }

    // MARK: Models

    @Test func listModelsReturnsTheModelsInTheServersOrder() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.json(
                status: 200,
                #"{"object":"list","data":[{"id":"gpt-4o","object":"model","owned_by":"openai"},"#
                    + #"{"id":"llama3","object":"model"},{"id":"a-model","owned_by":"me"}]}"#)
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.repository(server).listModels()
        #expect(
            try result.get() == [
                ModelInfo(id: "gpt-4o", ownedBy: "openai"), ModelInfo(id: "llama3"),
                ModelInfo(id: "a-model", ownedBy: "me"),
            ])
        let recorded = try #require(server.requests.first)
        #expect(recorded.method == "GET")
        #expect(recorded.path == "/v1/models")
        #expect(recorded.header("Accept") == "application/json")
        #expect(recorded.header("Authorization") == "Bearer KEY")
    }

    @Test func listModelsUnauthorizedIsAFailure() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.json(status: 401, #"{"error":{"message":"Invalid token"}}"#)
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.repository(server).listModels()
        #expect(result == .failure(.unauthorized(message: "Invalid token")))
    }

    // MARK: Transport failures

    @Test func stalledStreamThrowsIdleTimeout() async throws {
        let server = try LoopbackServer { _, _ in
            [
                .head(status: 200, headers: [("Content-Type", "text/event-stream")], chunked: true),
                .text("data: \(ServerStep.chatChunk("Hi"))\n\n"), .stall(20),
            ]
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let start = ContinuousClock.now
        let result = await Self.collect(Self.repository(server, idleTimeout: 1).streamChat(Self.request()))
        let took = start.secondsElapsed
        #expect(result.events == [.text("Hi")])
        #expect(result.error as? ChatError == .idleTimeout(seconds: 1))
        // The repository reads in a task of its own on the shared pool, which synchronous tests
        // elsewhere may keep busy for seconds: the bound is loose, yet far below the 20 s stall.
        #expect(took >= 0.95, "gave up after \(took) s")
        #expect(took < 15, "gave up after \(took) s")
    }

    @Test func connectionRefusedIsRetriedAndSaysRefused() async throws {
        let (result, models) = try await RefusingPort.with { port in
            let repository = ServerGPTRepository(
                server: ServerConfiguration(
                    baseURL: "http://127.0.0.1:\(port)/v1", apiKey: "KEY", proxy: "",
                    retry: RetryPolicy(maxRetries: 1, initialDelay: 0.01)),
                transport: CurlHTTPClient())
            return (await Self.collect(repository.streamChat(Self.request())), await repository.listModels())
        }
        // A refused connection is retried (with the retry said), never answered.
        #expect(result.events.count == 1)
        if case .retrying(1, 1, _, let reason)? = result.events.first {
            #expect(reason.contains("Failed to connect"))
        } else {
            Issue.record("expected one retry, got \(result.events)")
        }
        guard case .connection(let failure, let message) = result.error as? ChatError else {
            Issue.record("expected connection error, got \(String(describing: result.error))")
            return
        }
        #expect(failure == .refused)
        #expect(message.contains("Failed to connect"), "\(message)")
        guard case .failure(.connection(let modelsFailure, let modelsMessage)) = models else {
            Issue.record("expected connection failure, got \(models)")
            return
        }
        #expect(modelsFailure == .refused)
        #expect(modelsMessage.contains("Failed to connect"), "\(modelsMessage)")
    }

    @Test func cancellingTheConsumerMidStreamEndsTheLoopAndDisconnects() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.sse((0..<100).map { ServerStep.chatChunk("token \($0) ") }, pause: 0.1)
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let client = CurlHTTPClient()
        let repository = Self.repository(server, client: client)
        let (firstText, signal) = AsyncStream<Void>.makeStream()
        let consumer = Task(executorPreference: OwnThreadExecutor.shared) { () -> (events: Int, error: ChatError?) in
            var events = 0
            do throws(ChatError) {
                try await repository.streamChat(Self.request()).read { _ in
                    events += 1
                    signal.yield()
                }
            } catch {
                return (events, error)
            }
            return (events, nil)
        }
        for await _ in firstText { break }
        let cancelled = ContinuousClock.now
        consumer.cancel()
        let outcome = await consumer.value
        let loopEnded = cancelled.secondsElapsed
        #expect(loopEnded < 1, "the loop ended \(loopEnded) s after cancel")
        // Far fewer than the 100 the server would send over 10 s. Not fewer still: the repository
        // reads on the shared pool, and a busy pool hands over what piled up meanwhile at once.
        #expect(outcome.events < 50)
        #expect(outcome.error == nil || outcome.error == .cancelled, "\(String(describing: outcome.error))")
        #expect(await LoopbackTestHelpers.eventually(timeout: 3) { server.clientDisconnects >= 1 })
        #expect(await LoopbackTestHelpers.eventually(timeout: 2) { client.activeTransfers == 0 })
    }
}

// MARK: Helpers

extension ServerGPTRepositoryTests {
    /// A repository for `server`; `proxy: ""` keeps any proxy in the environment out of the way.
    static func repository(
        _ server: LoopbackServer,
        apiKey: String? = "KEY",
        headers: [(name: String, value: String)] = [],
        idleTimeout: Double = 10,
        retry: RetryPolicy = RetryPolicy(maxRetries: 0),
        client: CurlHTTPClient = CurlHTTPClient(),
        readingExecutor: ConsumerExecutor = .shared
    ) -> ServerGPTRepository {
        ServerGPTRepository(
            server: ServerConfiguration(
                baseURL: server.baseURL, apiKey: apiKey, headers: headers, connectTimeout: 5, idleTimeout: idleTimeout,
                proxy: "", retry: retry),
            transport: client, readingExecutor: readingExecutor)
    }

    static func request(stream: Bool = true) -> ChatRequest {
        ChatRequest(
            messages: [
                ChatMessage(role: .system, content: "Be brief."), ChatMessage(role: .user, content: "Say \"hello\" ü"),
            ],
            settings: ChatSettings(model: "test-model", stream: stream))
    }

    /// The stream's events, with text that came in several events joined into one: how text is
    /// split depends on how it arrived (what was read in one go is one event).
    static func collect(_ answer: any AnswerStream) async -> (events: [ChatEvent], error: (any Error)?) {
        var events: [ChatEvent] = []
        do {
            try await answer.read { event in
                if case .text(let more) = event, case .text(let text)? = events.last {
                    events[events.count - 1] = .text(text + more)
                } else {
                    events.append(event)
                }
            }
        } catch {
            return (events, error)
        }
        return (events, nil)
    }

    static func json(_ request: RecordedRequest) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
    }

    static let completionJSON =
        #"{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"test-model","choices":[{"index":0,"#
        + #""message":{"role":"assistant","content":"Hello there"},"finish_reason":"stop"}],"#
        + #""usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}"#
}
