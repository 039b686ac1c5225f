import ChatDomain
import ChatTestSupport
import Foundation
import Synchronization
import Testing

@testable import ChatHTTP
@testable import ChatJSON
@testable import ChatMCP
@testable import ChatProviders

private let clock = ToolDefinition(
    name: "time__now", description: "The time", parameters: .object(["type": .string("object")]))

/// One tool, `time__now`, that answers "12:00" and records its calls.
private final class StubToolSource: ToolSource {
    private let calls = Mutex<[ToolCall]>([])
    var received: [ToolCall] { calls.withLock { $0 } }

    func tools() async -> [ToolDefinition] { [clock] }

    func call(_ call: ToolCall, tool: ToolDefinition) async -> ToolResult {
        calls.withLock { $0.append(call) }
        return ToolResult(callID: call.id, content: [.text("12:00")])
    }
}

/// A consent that lets every call run.
private struct Allow: ToolConsent {
    func decide(_ call: ToolCall, tool: ToolDefinition) async -> ToolConsentDecision { .run }
    func continueAfter(rounds: Int) async -> Bool { false }
}

/// An answer that thinks (signed), says a line and calls `name` with `{"zone": "UTC"}`, the
/// input in pieces, as the Messages API streams it.
private func thinkingCall(_ name: String, arguments: [String] = [#"{\"zone\""#, #": \"UTC\"}"#]) -> String {
    var events = [
        #"{"type":"message_start","message":{"type":"message","content":[],"usage":{"input_tokens":40,"output_tokens":1}}}"#,
        #"{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}"#,
        #"{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"The tool "}}"#,
        #"{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"knows."}}"#,
        #"{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"U0lH+/="}}"#,
        #"{"type":"content_block_stop","index":0}"#,
        #"{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}"#,
        #"{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Let me look."}}"#,
        #"{"type":"content_block_stop","index":1}"#,
        #"{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_A1","name":""#
            + name + #"","input":{}}}"#,
    ]
    for piece in arguments {
        events.append(
            #"{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":""#
                + piece + #""}}"#)
    }
    events += [
        #"{"type":"content_block_stop","index":2}"#,
        #"{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":30}}"#,
        #"{"type":"message_stop"}"#,
    ]
    return events.map { "event: x\ndata: \($0)\n\n" }.joined()
}

private func repository(_ server: LoopbackServer, stream: Bool = true) -> ServerGPTRepository {
    var configuration = ServerConfiguration(
        baseURL: server.baseURL, provider: .anthropic, apiKey: "sk-ant-KEY", connectTimeout: 5, idleTimeout: 30,
        proxy: "", retry: RetryPolicy(maxRetries: 0))
    configuration.thinkingBudget = 2048
    return ServerGPTRepository(server: configuration, transport: CurlHTTPClient())
}

/// The second request's assistant turn and the results turn after it, as sent.
private let replayed: String = [
    #"{"content":[{"signature":"U0lH+/=","thinking":"The tool knows.","type":"thinking"},"#,
    #"{"text":"Let me look.","type":"text"},"#,
    #"{"id":"toolu_A1","input":{"zone":"UTC"},"name":"time__now","type":"tool_use"}],"role":"assistant"},"#,
    #"{"content":[{"content":[{"text":"12:00","type":"text"}],"tool_use_id":"toolu_A1","type":"tool_result"}],"#,
    #""role":"user"}]"#,
].joined()

@Suite("Anthropic: the tool loop against a scripted Messages server", .onOwnThread)
struct AnthropicToolLoopTests {
    @Test("streamed: the call runs, the answer that thought is replayed with its signature, then its results")
    func streamed() async throws {
        let server = try LoopbackServer { _, index in
            AnthropicProviderTests.stream(index == 0 ? thinkingCall("time__now") : AnthropicStreamExamples.basic)
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let source = StubToolSource()
        let useCase = GPTChatUseCase(repository: repository(server), tools: ToolLoop(source: source, consent: Allow()))
        var conversation = Conversation(settings: ChatSettings(model: "claude-test", stream: true))
        var reasoning = ""
        let turn = await useCase.send("Time?", in: &conversation) { event in
            if case .reasoning(let piece) = event { reasoning += piece }
        }
        #expect(turn.error == nil)
        #expect(turn.answer?.content == "Hello!")
        #expect(reasoning == "The tool knows.")
        #expect(
            source.received == [
                ToolCall(id: "toolu_A1", name: "time__now", arguments: .object(["zone": .string("UTC")]))
            ])
        let requests = server.requests
        try #require(requests.count == 2)
        for request in requests {
            #expect(
                request.bodyText.contains(
                    #""tools":[{"description":"The time","input_schema":{"type":"object"},"name":"time__now"}]"#))
            #expect(request.bodyText.contains(#""thinking":{"budget_tokens":2048,"type":"enabled"}"#))
        }
        let question = #""messages":[{"content":[{"text":"Time?","type":"text"}],"role":"user"},"#
        #expect(requests[1].bodyText.contains(question + replayed), "\(requests[1].bodyText)")
    }

    @Test("whole answers (--no-stream): the same calls and the same replay")
    func whole() async throws {
        let message = [
            #"{"type":"message","role":"assistant","stop_reason":"tool_use","usage":{"input_tokens":40,"output_tokens":30},"#,
            #""content":[{"type":"thinking","thinking":"The tool knows.","signature":"U0lH+/="},"#,
            #"{"type":"text","text":"Let me look."},"#,
            #"{"type":"tool_use","id":"toolu_A1","name":"time__now","input":{"zone":"UTC"}}]}"#,
        ].joined()
        let final = #"{"type":"message","content":[{"type":"text","text":"Noon."}],"stop_reason":"end_turn"}"#
        let server = try LoopbackServer { _, index in ServerStep.json(status: 200, index == 0 ? message : final) }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let source = StubToolSource()
        let useCase = GPTChatUseCase(repository: repository(server), tools: ToolLoop(source: source, consent: Allow()))
        var conversation = Conversation(settings: ChatSettings(model: "claude-test", stream: false))
        let turn = await useCase.send("Time?", in: &conversation) { _ in }
        #expect(turn.error == nil)
        #expect(turn.answer?.content == "Noon.")
        #expect(source.received.map(\.id) == ["toolu_A1"])
        let requests = server.requests
        try #require(requests.count == 2)
        #expect(requests[1].bodyText.contains(replayed), "\(requests[1].bodyText)")
    }

    @Test("a real MCP server (mcp-server-time) through the Anthropic wire: its real result goes back")
    func realMCPServer() async throws {
        let server = try LoopbackServer { _, index in
            AnthropicProviderTests.stream(
                index == 0
                    ? thinkingCall("time__get_current_time", arguments: [#"{\"timezone\":"#, #" \"UTC\"}"#])
                    : AnthropicStreamExamples.basic)
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("chat-mcp-\(UUID().uuidString).log")
            .path
        let source = MCPToolSource([try MCPTimeServer.entry()], clientVersion: "test") { _ in log }
        let useCase = GPTChatUseCase(repository: repository(server), tools: ToolLoop(source: source, consent: Allow()))
        var conversation = Conversation(settings: ChatSettings(model: "claude-test", stream: true))
        let turn = await useCase.send("What time is it in UTC?", in: &conversation) { _ in }
        await source.close()
        try? FileManager.default.removeItem(atPath: log)
        #expect(turn.error == nil)
        let requests = server.requests
        try #require(requests.count == 2)
        #expect(requests[0].bodyText.contains(#""name":"time__get_current_time""#))
        let second = try JSONParser.parse(requests[1].bodyText)
        let messages = try #require(second["messages"]?.array)
        let results = try #require(messages.last?["content"]?.array)
        #expect(messages.last?["role"] == .string("user"))
        #expect(results.first?["type"] == .string("tool_result"))
        #expect(results.first?["tool_use_id"] == .string("toolu_A1"))
        #expect(results.first?["is_error"] == nil)
        let text = try #require(results.first?["content"]?.array?.first?["text"]?.string)
        #expect(try JSONParser.parse(text)["timezone"] == .string("UTC"), "\(text)")
        let answer = try #require(messages[messages.count - 2]["content"]?.array)
        #expect(answer.first?["signature"] == .string("U0lH+/="))
    }

    @Test("tool rounds continued without tools go as text, said once a run, before the answer")
    func sentAsTextIsSaidOnce() async throws {
        let server = try LoopbackServer { _, _ in AnthropicProviderTests.stream(AnthropicStreamExamples.basic) }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let anthropic = repository(server)
        let call = ToolCall(id: "call_1", name: "time__now", arguments: .object([:]))
        let messages = [
            ChatMessage(role: .user, content: "Time?"), ChatMessage(role: .assistant, parts: [.toolCall(call)]),
            ChatMessage(role: .tool, parts: [.toolResult(ToolResult(callID: "call_1", content: [.text("12:00")]))]),
            ChatMessage(role: .assistant, content: "Noon."), ChatMessage(role: .user, content: "Thanks"),
        ]
        let request = ChatRequest(messages: messages, settings: ChatSettings(model: "claude-test", stream: true))
        let first = await AnthropicProviderTests.collect(anthropic.streamChat(request))
        #expect(first.events.first == .sentAsText(provider: "anthropic"))
        #expect(first.events.dropFirst().first == .text("Hello!"))
        let second = await AnthropicProviderTests.collect(anthropic.streamChat(request))
        #expect(second.events.first == .text("Hello!"))
        #expect(server.requests.count == 2)
        #expect(server.requests.allSatisfy { $0.bodyText.contains("[tool call: time__now {}]") })
        // With tools offered, nothing goes as text and nothing is said.
        let withTools = ChatRequest(messages: messages, settings: request.settings, tools: [clock])
        let third = await AnthropicProviderTests.collect(repository(server).streamChat(withTools))
        #expect(third.events.first == .text("Hello!"))
    }

    @Test("a conversation whose tool round OpenAI's API made goes on through Anthropic's, and back")
    func crossProvider() async throws {
        let openAICall =
            #"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_9","type":"function","#
            + #""function":{"name":"time__now","arguments":"{}"}}]},"finish_reason":null}]}"#
        let openAI = try LoopbackServer { _, index in
            index == 0
                ? ServerStep.sse([openAICall, ServerStep.finishChunk("tool_calls")])
                : ServerStep.sse([ServerStep.chatChunk("It is noon.")])
        }
        defer { LoopbackTestHelpers.stopInBackground(openAI) }
        let anthropic = try LoopbackServer { _, index in
            AnthropicProviderTests.stream(index == 1 ? thinkingCall("time__now") : AnthropicStreamExamples.basic)
        }
        defer { LoopbackTestHelpers.stopInBackground(anthropic) }
        let source = StubToolSource()
        let loop = ToolLoop(source: source, consent: Allow())
        let viaOpenAI = GPTChatUseCase(
            repository: ServerGPTRepository(
                server: ServerConfiguration(baseURL: openAI.baseURL, apiKey: "KEY", proxy: ""),
                transport: CurlHTTPClient()),
            tools: loop)
        let viaAnthropic = GPTChatUseCase(repository: repository(anthropic), tools: loop)
        var conversation = Conversation(settings: ChatSettings(model: "m", stream: true))

        #expect(await viaOpenAI.send("Time?", in: &conversation) { _ in }.answer?.content == "It is noon.")
        #expect(await viaAnthropic.send("Sure?", in: &conversation) { _ in }.answer?.content == "Hello!")
        // OpenAI's round in Anthropic's shape, its id carried; thinking on, for a new turn.
        let first = try #require(anthropic.requests.first).bodyText
        let round = [
            #"{"content":[{"text":"Time?","type":"text"}],"role":"user"},"#,
            #"{"content":[{"id":"call_9","input":{},"name":"time__now","type":"tool_use"}],"role":"assistant"},"#,
            #"{"content":[{"content":[{"text":"12:00","type":"text"}],"tool_use_id":"call_9","type":"tool_result"}],"#,
            #""role":"user"},{"content":[{"text":"It is noon.","type":"text"}],"role":"assistant"},"#,
            #"{"content":[{"text":"Sure?","type":"text"}],"role":"user"}]"#,
        ].joined()
        #expect(first.contains(round), "\(first)")
        #expect(first.contains(#""thinking":{"budget_tokens":2048,"type":"enabled"}"#))

        // Anthropic's round (thinking, a call, its result) then back through OpenAI's API: the
        // thinking goes as text before the call (the signature left out), the call and its
        // result carried with Anthropic's id.
        #expect(await viaAnthropic.send("Again?", in: &conversation) { _ in }.answer?.content == "Hello!")
        let told = Mutex<[ChatEvent]>([])
        #expect(
            await viaOpenAI.send("Thanks", in: &conversation) { event in
                if case .sentAsText = event { told.withLock { $0.append(event) } }
            }.answer?.content == "It is noon.")
        // Said once, before the answer.
        #expect(told.withLock { $0 } == [.sentAsText(provider: "openai")])
        let last = try #require(openAI.requests.last).bodyText
        #expect(!last.contains(#""thinking":"#) && !last.contains("U0lH"), "\(last)")
        #expect(last.contains(#""content":"[thinking: The tool knows.]\n\nLet me look.""#), "\(last)")
        #expect(last.contains(#""id":"toolu_A1""#), "\(last)")
        #expect(last.contains(#"{"content":"12:00","role":"tool","tool_call_id":"toolu_A1"}"#), "\(last)")
        #expect(source.received.map(\.id) == ["call_9", "toolu_A1"])
    }
}
