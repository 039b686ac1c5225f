import ChatDomain
import ChatTestSupport
import Foundation
import Testing

@testable import ChatConfig
@testable import ChatHTTP
@testable import ChatHistory
@testable import ChatJSON
@testable import ChatPresentation
@testable import ChatProviders

/// `ServerGPTRepository` with `provider: anthropic`, over a real `CurlHTTPClient` against a
/// loopback server that speaks the Messages API.
@Suite(.onOwnThread) struct AnthropicProviderTests {
    static func repository(
        _ server: LoopbackServer, apiKey: String? = "sk-ant-KEY", retry: RetryPolicy = RetryPolicy(maxRetries: 0),
        thinkingBudget: Int? = nil, cache: Bool = false
    ) -> ServerGPTRepository {
        var configuration = ServerConfiguration(
            baseURL: server.baseURL, provider: .anthropic, apiKey: apiKey, connectTimeout: 5, idleTimeout: 10,
            proxy: "", retry: retry)
        configuration.thinkingBudget = thinkingBudget
        configuration.promptCaching = cache
        return ServerGPTRepository(server: configuration, transport: CurlHTTPClient())
    }

    static func request(stream: Bool = true, sampling: SamplingValues = [:], images: [ImageAttachment] = [])
        -> ChatRequest
    {
        ChatRequest(
            messages: [
                ChatMessage(role: .system, content: "Be brief."), ChatMessage(role: .user, content: "Hi"),
                ChatMessage(role: .assistant, content: "Hello."),
                ChatMessage(role: .user, content: "Say \"hello\" ü", images: images),
            ],
            settings: ChatSettings(model: "claude-test", sampling: sampling, stream: stream))
    }

    /// The Messages API's answer: `events` as `event:`/`data:` pairs, in one chunked response.
    static func stream(_ text: String, status: Int = 200) -> [ServerStep] {
        [.head(status: status, headers: [("Content-Type", "text/event-stream")], chunked: true), .text(text), .end]
    }

    static func collect(_ answer: any AnswerStream) async -> (events: [ChatEvent], error: ChatError?) {
        var events: [ChatEvent] = []
        do {
            try await answer.read { events.append($0) }
        } catch {
            return (AnthropicStreamDecoderTests.joined(events), error)
        }
        return (AnthropicStreamDecoderTests.joined(events), nil)
    }

    static func json(_ request: RecordedRequest) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
    }

    // MARK: The request

    @Test func theRequestCarriesTheKeyAsXAPIKeyTheVersionAndTheMessagesBody() async throws {
        let server = try LoopbackServer { _, _ in Self.stream(AnthropicStreamExamples.basic) }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.collect(
            Self.repository(server).streamChat(
                Self.request(sampling: [.temperature: .number(0.5), .topP: .number(0.9)])))
        #expect(result.error == nil)
        #expect(result.events.first == .text("Hello!"))

        let recorded = try #require(server.requests.first)
        #expect(recorded.method == "POST")
        #expect(recorded.path == "/v1/messages")
        #expect(recorded.header("x-api-key") == "sk-ant-KEY")
        #expect(recorded.header("anthropic-version") == "2023-06-01")
        #expect(recorded.header("Authorization") == nil)
        #expect(recorded.header("Accept") == "text/event-stream")
        #expect(recorded.header("Content-Type") == "application/json")
        let body = try Self.json(recorded)
        #expect(body["model"] as? String == "claude-test")
        #expect(body["stream"] as? Bool == true)
        #expect(body["max_tokens"] as? Int == 8192)
        #expect(body["temperature"] as? Double == 0.5)
        #expect(body["top_p"] as? Double == 0.9)
        #expect(body["thinking"] == nil)
        #expect(body["system"] as? [[String: String]] == [["type": "text", "text": "Be brief."]])
        #expect(
            recorded.bodyText.contains(
                #""messages":[{"content":[{"text":"Hi","type":"text"}],"role":"user"},"#
                    + #"{"content":[{"text":"Hello.","type":"text"}],"role":"assistant"},"#
                    + #"{"content":[{"text":"Say \"hello\" ü","type":"text"}],"role":"user"}]"#), "\(recorded.bodyText)"
        )
        #expect(!recorded.bodyText.contains("cache_control"))
    }

    @Test func imagesGoAsBase64SourceBlocksAndMaxTokensIsTheOneSet() async throws {
        let server = try LoopbackServer { _, _ in Self.stream(AnthropicStreamExamples.basic) }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let image = ImageAttachment(path: "a.png", mimeType: "image/png", byteCount: 3, sha256: "", data: [1, 2, 3])
        let gone = ImageAttachment(path: "gone.png", mimeType: "image/png", byteCount: 3, sha256: "")
        _ = await Self.collect(
            Self.repository(server).streamChat(
                Self.request(sampling: [.maxTokens: .wholeNumber(300)], images: [image, gone])))
        let body = try Self.json(try #require(server.requests.first))
        #expect(body["max_tokens"] as? Int == 300)
        let last = try #require((body["messages"] as? [[String: Any]])?.last)
        let content = try #require(last["content"] as? [[String: Any]])
        #expect(content.count == 3)
        #expect(content[1]["type"] as? String == "image")
        #expect(
            content[1]["source"] as? [String: String] == ["type": "base64", "media_type": "image/png", "data": "AQID"])
        #expect(content[2]["text"] as? String == "[image gone.png is no longer available]")
    }

    @Test func cacheMarksTheSystemPromptAndTheLastUserTurn() async throws {
        let server = try LoopbackServer { _, _ in Self.stream(AnthropicStreamExamples.basic) }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        _ = await Self.collect(Self.repository(server, cache: true).streamChat(Self.request()))
        let body = try Self.json(try #require(server.requests.first))
        let ephemeral = ["type": "ephemeral"]
        let system = try #require(body["system"] as? [[String: Any]])
        #expect(system.first?["cache_control"] as? [String: String] == ephemeral)
        let messages = try #require(body["messages"] as? [[String: Any]])
        let blocks = messages.map { ($0["content"] as? [[String: Any]]) ?? [] }
        #expect(blocks[0].first?["cache_control"] == nil)
        #expect(blocks[1].first?["cache_control"] == nil)
        #expect(blocks[2].last?["cache_control"] as? [String: String] == ephemeral)
    }

    @Test func thinkingAsksForTheBudgetAndRaisesMaxTokensAboveIt() async throws {
        let server = try LoopbackServer { _, _ in Self.stream(AnthropicStreamExamples.thinking) }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.collect(
            Self.repository(server, thinkingBudget: 2048).streamChat(
                Self.request(sampling: [.maxTokens: .wholeNumber(1000)])))
        #expect(result.events.first.map { if case .reasoning = $0 { true } else { false } } == true)
        let body = try Self.json(try #require(server.requests.first))
        let thinking = try #require(body["thinking"] as? [String: Any])
        #expect(thinking["type"] as? String == "enabled")
        #expect(thinking["budget_tokens"] as? Int == 2048)
        #expect(body["max_tokens"] as? Int == 2048 + 8192)
    }

    @Test func aSettingAnthropicLacksIsRefusedBeforeSending() async throws {
        let server = try LoopbackServer { _, _ in Self.stream(AnthropicStreamExamples.basic) }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.collect(
            Self.repository(server).streamChat(Self.request(sampling: [.seed: .wholeNumber(7)])))
        #expect(result.error == .unsupportedSetting(name: "seed", provider: "anthropic"))
        #expect(server.requests.isEmpty)
    }

    // MARK: Answers and errors

    @Test func aMidStreamErrorEventKeepsTheTextShown() async throws {
        let server = try LoopbackServer { _, _ in Self.stream(AnthropicStreamExamples.overloaded) }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.collect(
            Self.repository(server, retry: RetryPolicy(maxRetries: 2, initialDelay: 0.01)).streamChat(Self.request()))
        #expect(result.events == [.text("Partial")])
        #expect(result.error == .streamError(message: "Overloaded"))
        #expect(server.requests.count == 1)
    }

    @Test func overloaded529IsRetriedHonouringRetryAfterThenAnswered() async throws {
        let server = try LoopbackServer { _, index in
            index == 0
                ? ServerStep.json(
                    status: 529, #"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
                    headers: [("retry-after-ms", "20")])
                : Self.stream(AnthropicStreamExamples.basic)
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.collect(
            Self.repository(server, retry: RetryPolicy(maxRetries: 2, initialDelay: 5)).streamChat(Self.request()))
        #expect(result.error == nil)
        #expect(server.requests.count == 2)
        guard case .retrying(1, 2, let delay, _)? = result.events.first else {
            Issue.record("expected a retry first, got \(result.events)")
            return
        }
        #expect(delay == 0.02)
        #expect(Array(result.events.dropFirst()).first == .text("Hello!"))
    }

    @Test func anErrorBodyIsReadForItsMessage() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.json(
                status: 400,
                #"{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: too big"}}"#)
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.collect(Self.repository(server).streamChat(Self.request()))
        #expect(result.error == .badRequest(status: 400, message: "max_tokens: too big"))
    }

    @Test func aWholeAnswerIsReadWithoutStreaming() async throws {
        let message =
            #"{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":["#
            + #"{"type":"thinking","thinking":"Hmm.","signature":"sig"},{"type":"text","text":"Hi there"}],"#
            + #""stop_reason":"end_turn","stop_sequence":null,"#
            + #""usage":{"input_tokens":12,"output_tokens":4,"cache_read_input_tokens":8}}"#
        let server = try LoopbackServer { _, _ in ServerStep.json(status: 200, message) }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.collect(Self.repository(server).streamChat(Self.request(stream: false)))
        #expect(result.error == nil)
        #expect(
            result.events == [
                .reasoning("Hmm."), .thinking(.signed(text: "Hmm.", signature: "sig")), .text("Hi there"),
                .finished(reason: "end_turn"),
                .usage(TokenUsage(promptTokens: 20, completionTokens: 4, cacheReadTokens: 8, model: "claude-test")),
            ])
        let recorded = try #require(server.requests.first)
        #expect(recorded.header("Accept") == "application/json")
        #expect(try Self.json(recorded)["stream"] as? Bool == false)
    }

    // MARK: Models

    @Test func modelsAreReadPageByPage() async throws {
        let server = try LoopbackServer { request, index in
            let page =
                index == 0
                ? #"{"data":[{"type":"model","id":"claude-a","display_name":"A"},{"type":"model","id":"claude-b"}],"#
                    + #""has_more":true,"first_id":"claude-a","last_id":"claude-b"}"#
                : #"{"data":[{"type":"model","id":"claude-c"}],"has_more":false,"first_id":"claude-c","#
                    + #""last_id":"claude-c"}"#
            return ServerStep.json(status: 200, page)
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let models = try await Self.repository(server).listModels().get()
        #expect(models.map(\.id) == ["claude-a", "claude-b", "claude-c"])
        let requests = server.requests
        #expect(requests.map(\.path) == ["/v1/models?limit=1000", "/v1/models?limit=1000&after_id=claude-b"])
        #expect(requests.allSatisfy { $0.header("x-api-key") == "sk-ant-KEY" && $0.header("Authorization") == nil })
        #expect(requests.allSatisfy { $0.header("anthropic-version") == "2023-06-01" })
    }
}
