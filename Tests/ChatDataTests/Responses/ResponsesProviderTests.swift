import ChatDomain
import ChatTestSupport
import Foundation
import Testing

@testable import ChatHTTP
@testable import ChatProviders

/// `ServerGPTRepository` with `provider: openai-responses`, over a real `CurlHTTPClient`
/// against a loopback server that speaks the Responses API.
@Suite(.onOwnThread) struct ResponsesProviderTests {
    static func repository(
        _ server: LoopbackServer, apiKey: String? = "sk-KEY", retry: RetryPolicy = RetryPolicy(maxRetries: 0)
    ) -> ServerGPTRepository {
        let configuration = ServerConfiguration(
            baseURL: server.baseURL, provider: .openAIResponses, apiKey: apiKey, connectTimeout: 5, idleTimeout: 10,
            proxy: "", retry: retry)
        return ServerGPTRepository(server: configuration, transport: CurlHTTPClient())
    }

    static func request(model: String = "gpt-5", stream: Bool = true) -> ChatRequest {
        ChatRequest(
            messages: [ChatMessage(role: .system, content: "Be brief."), ChatMessage(role: .user, content: "Hi")],
            settings: ChatSettings(model: model, stream: stream))
    }

    /// `events` in one chunked `text/event-stream` response.
    static func stream(_ events: String) -> [ServerStep] {
        [.head(status: 200, headers: [("Content-Type", "text/event-stream")], chunked: true), .text(events), .end]
    }

    static func collect(_ answer: any AnswerStream) async -> (events: [ChatEvent], error: ChatError?) {
        var events: [ChatEvent] = []
        do {
            try await answer.read { events.append($0) }
        } catch {
            return (ResponsesStreamDecoderTests.joined(events), error)
        }
        return (ResponsesStreamDecoderTests.joined(events), nil)
    }

    static let liteLLMUsage = TokenUsage(
        promptTokens: 11, completionTokens: 5, totalTokens: 16, cacheReadTokens: 3, reasoningTokens: 0,
        model: "fake-model")

    // MARK: The request and its answer

    @Test func aStreamedAnswerIsAskedOfPostResponsesWithTheKeyAndReadAsItComes() async throws {
        let server = try LoopbackServer { _, _ in Self.stream(ResponsesStreamExamples.liteLLMText) }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.collect(Self.repository(server).streamChat(Self.request()))
        #expect(result.error == nil)
        #expect(result.events == [.text("Hello from fake"), .finished(reason: "stop"), .usage(Self.liteLLMUsage)])

        let recorded = try #require(server.requests.first)
        #expect(server.requests.count == 1)
        #expect(recorded.method == "POST")
        #expect(recorded.path == "/v1/responses")
        #expect(recorded.header("Authorization") == "Bearer sk-KEY")
        #expect(recorded.header("Accept") == "text/event-stream")
        #expect(recorded.header("Content-Type") == "application/json")
        #expect(
            recorded.bodyText
                == #"{"include":["reasoning.encrypted_content"],"#
                + #""input":[{"content":[{"text":"Hi","type":"input_text"}],"role":"user","type":"message"}],"#
                + #""instructions":"Be brief.","model":"gpt-5","reasoning":{"summary":"auto"},"store":false,"#
                + #""stream":true}"#)
    }

    @Test func aWholeAnswerIsReadWithoutStreaming() async throws {
        let response =
            #"{"id":"resp_1","object":"response","created_at":1741487325,"status":"completed","#
            + #""completed_at":1741487326,"error":null,"incomplete_details":null,"instructions":"Be brief.","#
            + #""max_output_tokens":null,"model":"gpt-5","output":[{"id":"rs_1","type":"reasoning","#
            + #""summary":[{"type":"summary_text","text":"Greet back."}],"encrypted_content":"gAAAAB=="},"#
            + #"{"id":"msg_1","type":"message","status":"completed","role":"assistant","#
            + #""content":[{"type":"output_text","text":"Hello there","annotations":[]}]}],"#
            + #""parallel_tool_calls":true,"previous_response_id":null,"reasoning":{"effort":"low","summary":"auto"},"#
            + #""store":false,"temperature":1,"text":{"format":{"type":"text"}},"tool_choice":"auto","tools":[],"#
            + #""top_p":1,"truncation":"disabled","usage":{"input_tokens":12,"#
            + #""input_tokens_details":{"cached_tokens":8},"output_tokens":40,"#
            + #""output_tokens_details":{"reasoning_tokens":32},"total_tokens":52},"user":null,"metadata":{}}"#
        let server = try LoopbackServer { _, _ in ServerStep.json(status: 200, response) }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.collect(Self.repository(server).streamChat(Self.request(stream: false)))
        #expect(result.error == nil)
        #expect(
            result.events == [
                .reasoning("Greet back."),
                .thinking(.encryptedReasoning(summary: ["Greet back."], content: "gAAAAB==")),
                .text("Hello there"), .finished(reason: "stop"),
                .usage(
                    TokenUsage(
                        promptTokens: 12, completionTokens: 40, totalTokens: 52, cacheReadTokens: 8,
                        reasoningTokens: 32,
                        model: "gpt-5")),
            ])
        let recorded = try #require(server.requests.first)
        #expect(recorded.header("Accept") == "application/json")
        #expect(recorded.bodyText.contains(#""store":false,"stream":false"#))
    }

    @Test func aFailedResponseMidStreamKeepsTheTextAndIsNotSentAgain() async throws {
        let server = try LoopbackServer { _, _ in Self.stream(ResponsesStreamExamples.failed) }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.collect(
            Self.repository(server, retry: RetryPolicy(maxRetries: 2, initialDelay: 0.01)).streamChat(Self.request()))
        #expect(result.events == [.text("In")])
        #expect(result.error == .streamError(message: "The model failed to generate a response. (server_error)"))
        #expect(server.requests.count == 1)
    }

    @Test func anErrorBodyIsReadAsOpenAIsForItsMessage() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.json(
                status: 401,
                #"{"error":{"message":"Incorrect API key provided.","type":"invalid_request_error","param":null,"#
                    + #""code":"invalid_api_key"}}"#)
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.collect(Self.repository(server).streamChat(Self.request()))
        #expect(result.error == .unauthorized(message: "Incorrect API key provided."))
    }

    @Test func aToolRoundWithoutToolsOfferedIsSaidOnceARunToGoAsText() async throws {
        let server = try LoopbackServer { _, _ in Self.stream(ResponsesStreamExamples.liteLLMText) }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let repository = Self.repository(server)
        let call = ToolCall(id: "call_1", name: "time__now", arguments: .object([:]))
        let request = ChatRequest(
            messages: [
                ChatMessage(role: .user, content: "Time?"), ChatMessage(role: .assistant, parts: [.toolCall(call)]),
                ChatMessage(role: .tool, parts: [.toolResult(ToolResult(callID: "call_1", content: [.text("12:00")]))]),
                ChatMessage(role: .user, content: "Thanks"),
            ], settings: ChatSettings(model: "gpt-4o", stream: true))
        let first = await Self.collect(repository.streamChat(request))
        #expect(first.events.first == .sentAsText(provider: "openai-responses"))
        let second = await Self.collect(repository.streamChat(request))
        #expect(second.events.first == .text("Hello from fake"))
    }

    // MARK: A server that refuses include

    static let includeRefused = [
        #"{"error":{"message":"Encrypted content is not supported with this model.","type":"invalid_request_error","#
            + #""param":"include","code":"unsupported_parameter"}}"#,
        #"{"error":{"message":"Unsupported value: 'reasoning.encrypted_content' is not supported with this model.","#
            + #""type":"invalid_request_error","param":null,"code":"unsupported_value"}}"#,
        #"{"error":{"message":"Unknown parameter: 'include'.","type":"invalid_request_error","param":null,"code":null}}"#,
    ]

    @Test(arguments: includeRefused)
    func aBadRequestNamingIncludeIsSentAgainWithoutItAndSoForTheRestOfTheRun(refusal: String) async throws {
        let server = try LoopbackServer { _, index in
            index == 0 ? ServerStep.json(status: 400, refusal) : Self.stream(ResponsesStreamExamples.liteLLMText)
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let repository = Self.repository(server)
        let first = await Self.collect(repository.streamChat(Self.request()))
        #expect(first.error == nil)
        #expect(first.events == [.text("Hello from fake"), .finished(reason: "stop"), .usage(Self.liteLLMUsage)])
        let second = await Self.collect(repository.streamChat(Self.request()))
        #expect(second.error == nil)

        let bodies = server.requests.map(\.bodyText)
        try #require(bodies.count == 3)
        #expect(bodies[0].contains(#""include":["reasoning.encrypted_content"]"#))
        for body in bodies.dropFirst() {
            #expect(!body.contains("include") && !body.contains("encrypted_content"), "\(body)")
            #expect(body.contains(#""model":"gpt-5","reasoning":{"summary":"auto"},"store":false,"stream":true"#))
        }
    }

    @Test func includeRefusedTwiceIsThrownAfterTwoRequestsAndNotRemembered() async throws {
        let server = try LoopbackServer { _, _ in ServerStep.json(status: 400, Self.includeRefused[0]) }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let repository = Self.repository(server)
        let result = await Self.collect(repository.streamChat(Self.request()))
        #expect(
            result.error == .badRequest(status: 400, message: "Encrypted content is not supported with this model."))
        #expect(server.requests.count == 2)
        // Leaving it out did not help, so it was not to blame: the next request asks again.
        _ = await Self.collect(repository.streamChat(Self.request()))
        let bodies = server.requests.map(\.bodyText)
        try #require(bodies.count == 4)
        #expect(bodies[2].contains("include"))
    }

    @Test(arguments: [
        "Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got 1.",
        // "include" in a word of its own is not the parameter.
        "The messages included an image that could not be read.",
    ])
    func aBadRequestNotNamingIncludeIsSentOnce(message: String) async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.json(
                status: 400,
                #"{"error":{"message":"\#(message)","type":"invalid_request_error","param":"max_output_tokens","#
                    + #""code":"integer_below_min_value"}}"#)
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.collect(Self.repository(server).streamChat(Self.request()))
        #expect(result.error == .badRequest(status: 400, message: message))
        #expect(server.requests.count == 1)
        #expect(server.requests.first?.bodyText.contains("include") == true)
    }

    // MARK: Models

    @Test func modelsAreListedFromOpenAIsModelList() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.json(
                status: 200,
                #"{"object":"list","data":[{"id":"gpt-5","object":"model","created":1754425777,"owned_by":"system"},"#
                    + #"{"id":"o3","object":"model","created":1744225308,"owned_by":"system"}]}"#)
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let models = try await Self.repository(server).listModels().get()
        #expect(models == [ModelInfo(id: "gpt-5", ownedBy: "system"), ModelInfo(id: "o3", ownedBy: "system")])
        let recorded = try #require(server.requests.first)
        #expect(recorded.method == "GET")
        #expect(recorded.path == "/v1/models")
        #expect(recorded.header("Authorization") == "Bearer sk-KEY")
    }
}
