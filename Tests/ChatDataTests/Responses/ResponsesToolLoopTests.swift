import ChatDomain
import ChatTestSupport
import Testing

@testable import ChatHTTP
@testable import ChatProviders

/// An answer of a reasoning model that calls `time__now` with `{"zone": "UTC"}`: a reasoning
/// item with its summary and encrypted content, then the call, as the Responses API streams
/// them (the call's arguments in pieces).
private let reasoningCall = #"""
    event: response.output_item.added
    data: {"type":"response.output_item.added","output_index":0,"item":{"id":"rs_A1","type":"reasoning","summary":[]}}

    event: response.reasoning_summary_text.delta
    data: {"type":"response.reasoning_summary_text.delta","item_id":"rs_A1","output_index":0,"summary_index":0,"delta":"The tool "}

    event: response.reasoning_summary_text.delta
    data: {"type":"response.reasoning_summary_text.delta","item_id":"rs_A1","output_index":0,"summary_index":0,"delta":"knows."}

    event: response.output_item.done
    data: {"type":"response.output_item.done","output_index":0,"item":{"id":"rs_A1","type":"reasoning","summary":[{"type":"summary_text","text":"The tool knows."}],"encrypted_content":"gAAAAB+enc/1=="}}

    event: response.output_item.added
    data: {"type":"response.output_item.added","output_index":1,"item":{"type":"function_call","id":"fc_A1","call_id":"call_A1","name":"time__now","arguments":"","status":"in_progress"}}

    event: response.function_call_arguments.delta
    data: {"type":"response.function_call_arguments.delta","item_id":"fc_A1","output_index":1,"delta":"{\"zone\""}

    event: response.function_call_arguments.delta
    data: {"type":"response.function_call_arguments.delta","item_id":"fc_A1","output_index":1,"delta":":\"UTC\"}"}

    event: response.output_item.done
    data: {"type":"response.output_item.done","output_index":1,"item":{"type":"function_call","id":"fc_A1","call_id":"call_A1","name":"time__now","arguments":"{\"zone\":\"UTC\"}","status":"completed"}}

    event: response.completed
    data: {"type":"response.completed","response":{"id":"resp_A","status":"completed","output":[{"id":"rs_A1","type":"reasoning","summary":[{"type":"summary_text","text":"The tool knows."}],"encrypted_content":"gAAAAB+enc/1=="},{"type":"function_call","id":"fc_A1","call_id":"call_A1","name":"time__now","arguments":"{\"zone\":\"UTC\"}","status":"completed"}],"usage":{"input_tokens":40,"output_tokens":30,"output_tokens_details":{"reasoning_tokens":20},"total_tokens":70}}}


    """#

private func repository(_ server: LoopbackServer) -> ServerGPTRepository {
    let configuration = ServerConfiguration(
        baseURL: server.baseURL, provider: .openAIResponses, apiKey: "sk-KEY", connectTimeout: 5, idleTimeout: 30,
        proxy: "", retry: RetryPolicy(maxRetries: 0))
    return ServerGPTRepository(server: configuration, transport: CurlHTTPClient())
}

/// The second request's input: the question, the reasoning item as it came, the call, its result.
private let replayed = [
    #""input":[{"content":[{"text":"Time?","type":"input_text"}],"role":"user","type":"message"},"#,
    #"{"encrypted_content":"gAAAAB+enc/1==","summary":[{"text":"The tool knows.","type":"summary_text"}],"#,
    #""type":"reasoning"},"#,
    #"{"arguments":"{\"zone\":\"UTC\"}","call_id":"call_A1","name":"time__now","type":"function_call"},"#,
    #"{"call_id":"call_A1","output":"12:00","type":"function_call_output"}],"#,
].joined()

private let tools =
    #""tools":[{"description":"The time","name":"time__now","parameters":{"type":"object"},"strict":false,"#
    + #""type":"function"}]"#

@Suite("Responses: the tool loop against a scripted Responses server", .onOwnThread)
struct ResponsesToolLoopTests {
    @Test("streamed: the call runs, its reasoning item goes back unmodified before it, then its result")
    func streamed() async throws {
        let server = try LoopbackServer { _, index in
            ResponsesProviderTests.stream(index == 0 ? reasoningCall : ResponsesStreamExamples.liteLLMText)
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let source = StubToolSource()
        let useCase = GPTChatUseCase(
            repository: repository(server), tools: ToolLoop(source: source, consent: StubConsent()))
        var conversation = Conversation(settings: ChatSettings(model: "gpt-5", stream: true))
        var reasoning = ""
        let turn = await useCase.send("Time?", in: &conversation) { event in
            if case .reasoning(let piece) = event { reasoning += piece }
        }
        #expect(turn.error == nil)
        #expect(turn.answer?.content == "Hello from fake")
        #expect(reasoning == "The tool knows.")
        #expect(
            source.received == [
                ToolCall(id: "call_A1", name: "time__now", arguments: .object(["zone": .string("UTC")]))
            ])
        let requests = server.requests
        try #require(requests.count == 2)
        for request in requests {
            #expect(request.path == "/v1/responses")
            #expect(request.bodyText.contains(tools), "\(request.bodyText)")
            #expect(request.bodyText.contains(#""include":["reasoning.encrypted_content"]"#))
            #expect(!request.bodyText.contains(#""id""#), "\(request.bodyText)")
        }
        #expect(requests[1].bodyText.contains(replayed), "\(requests[1].bodyText)")
    }

    @Test("whole answers (--no-stream): the same call and the same replay")
    func whole() async throws {
        let first =
            #"{"id":"resp_A","object":"response","status":"completed","error":null,"output":["#
            + #"{"id":"rs_A1","type":"reasoning","summary":[{"type":"summary_text","text":"The tool knows."}],"#
            + #""encrypted_content":"gAAAAB+enc/1=="},"#
            + #"{"type":"function_call","id":"fc_A1","call_id":"call_A1","name":"time__now","#
            + #""arguments":"{\"zone\":\"UTC\"}","status":"completed"}],"#
            + #""usage":{"input_tokens":40,"output_tokens":30,"total_tokens":70}}"#
        let final =
            #"{"id":"resp_B","object":"response","status":"completed","error":null,"output":["#
            + #"{"id":"msg_B","type":"message","role":"assistant","content":[{"type":"output_text","text":"Noon.","#
            + #""annotations":[]}]}]}"#
        let server = try LoopbackServer { _, index in ServerStep.json(status: 200, index == 0 ? first : final) }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let source = StubToolSource()
        let useCase = GPTChatUseCase(
            repository: repository(server), tools: ToolLoop(source: source, consent: StubConsent()))
        var conversation = Conversation(settings: ChatSettings(model: "gpt-5", stream: false))
        let turn = await useCase.send("Time?", in: &conversation) { _ in }
        #expect(turn.error == nil)
        #expect(turn.answer?.content == "Noon.")
        #expect(source.received.map(\.id) == ["call_A1"])
        let requests = server.requests
        try #require(requests.count == 2)
        #expect(requests[1].bodyText.contains(replayed), "\(requests[1].bodyText)")
        #expect(!requests[1].bodyText.contains(#""id""#), "\(requests[1].bodyText)")
    }
}
