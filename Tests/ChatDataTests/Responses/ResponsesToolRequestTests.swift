import ChatDomain
import Testing

@testable import ChatProviders

private let weather = ToolDefinition(
    name: "get_weather", description: "weather", parameters: .object(["type": .string("object")]))

private func call(_ id: String, city: String) -> MessagePart {
    .toolCall(ToolCall(id: id, name: "get_weather", arguments: .object(["city": .string(city)])))
}

/// A tool round of a reasoning model: the question; the answer (a reasoning item with two
/// summary parts, text, a reasoning item with no summary, two calls); the results (one an
/// error); the answer to them; the next question.
private let round: [ChatMessage] = [
    ChatMessage(role: .system, content: "Be brief."),
    ChatMessage(role: .user, content: "Weather in Paris and Lyon?"),
    ChatMessage(
        role: .assistant,
        parts: [
            .thinking(.encryptedReasoning(summary: ["Look it up.", "Use the tool."], content: "gAAAAB1+/=")),
            .text("Checking."), .thinking(.encryptedReasoning(summary: [], content: "gAAAAB2")),
            call("call_1", city: "Paris"), call("call_2", city: "Lyon"),
        ]),
    ChatMessage(
        role: .tool,
        parts: [
            .toolResult(ToolResult(callID: "call_1", content: [.text("21C")])),
            .toolResult(ToolResult(callID: "call_2", content: [.text("declined")], isError: true)),
        ]),
    ChatMessage(role: .assistant, content: "Paris is 21C."),
    ChatMessage(role: .user, content: "Thanks"),
]

/// `messages` as `gpt-5` is sent them, with `tools`.
private func dto(_ messages: [ChatMessage], tools: [ToolDefinition] = [weather]) throws -> ResponsesRequestDTO {
    try ResponsesRequestDTO(
        ChatRequest(messages: messages, settings: ChatSettings(model: "gpt-5", stream: true), tools: tools),
        includeEncrypted: true, showsReasoning: true)
}

private func text(_ dto: ResponsesRequestDTO) throws -> String {
    String(decoding: try #require(dto.jsonBytes), as: UTF8.self)
}

/// A tool round in the body of `POST /responses`: reasoning items and calls replayed in the
/// order they came, without the server's ids, results as `function_call_output` items; what
/// cannot go as items goes as text.
@Suite struct ResponsesToolRequestTests {
    @Test func aRoundIsReplayedInOrderReasoningWholeCallsAndResultsByCallIDAndNoIDs() throws {
        let round = try dto(round)
        #expect(!round.sentAsText)
        let body = try text(round)
        #expect(
            body
                == #"{"include":["reasoning.encrypted_content"],"input":["#
                + #"{"content":[{"text":"Weather in Paris and Lyon?","type":"input_text"}],"role":"user","type":"message"},"#
                + #"{"encrypted_content":"gAAAAB1+/=","summary":[{"text":"Look it up.","type":"summary_text"},"#
                + #"{"text":"Use the tool.","type":"summary_text"}],"type":"reasoning"},"#
                + #"{"content":[{"text":"Checking.","type":"output_text"}],"role":"assistant","type":"message"},"#
                + #"{"encrypted_content":"gAAAAB2","summary":[],"type":"reasoning"},"#
                + #"{"arguments":"{\"city\":\"Paris\"}","call_id":"call_1","name":"get_weather","type":"function_call"},"#
                + #"{"arguments":"{\"city\":\"Lyon\"}","call_id":"call_2","name":"get_weather","type":"function_call"},"#
                + #"{"call_id":"call_1","output":"21C","type":"function_call_output"},"#
                + #"{"call_id":"call_2","output":"Error: declined","type":"function_call_output"},"#
                + #"{"content":[{"text":"Paris is 21C.","type":"output_text"}],"role":"assistant","type":"message"},"#
                + #"{"content":[{"text":"Thanks","type":"input_text"}],"role":"user","type":"message"}],"#
                + #""instructions":"Be brief.","model":"gpt-5","reasoning":{"summary":"auto"},"store":false,"#
                + #""stream":true,"tools":[{"description":"weather","name":"get_weather","#
                + #""parameters":{"type":"object"},"strict":false,"type":"function"}]}"#)
        #expect(!body.contains(#""id""#))
    }

    @Test func withoutToolsOfferedTheRoundGoesAsTextItsReasoningToo() throws {
        // A reasoning item goes back only before the call it led to; with the calls as text, its
        // summary goes as text, as another provider's thinking does.
        let round = try dto(round, tools: [])
        #expect(round.sentAsText)
        let types = round.input.map(\.type)
        #expect(!types.contains("function_call") && !types.contains("function_call_output"))
        #expect(!types.contains("reasoning"))
        let body = try text(round)
        #expect(
            body.contains(
                #"{"content":[{"text":"[thinking: Look it up.\n\nUse the tool.]\n\nChecking.\n"#
                    + #"[tool call: get_weather {\"city\":\"Paris\"}]\n[tool call: get_weather {\"city\":\"Lyon\"}]","#
                    + #""type":"output_text"}],"role":"assistant","type":"message"}"#), "\(body)")
        // The results name their tool, as the anthropic provider's do.
        #expect(body.contains("[tool result of get_weather: 21C]"), "\(body)")
        #expect(body.contains("[tool error of get_weather: declined]"), "\(body)")
        #expect(!body.contains("\"tools\""))
        #expect(!body.contains("encrypted_content\":"))
    }

    @Test func aResultWhoseCallWasNotSentAsAnItemGoesAsText() throws {
        // The answer that made the call was left out (too old for the context): its result
        // alone cannot be a `function_call_output`.
        let orphan = try dto([
            ChatMessage(role: .user, content: "Weather?"),
            ChatMessage(role: .tool, parts: [.toolResult(ToolResult(callID: "call_9", content: [.text("21C")]))]),
            ChatMessage(role: .user, content: "So?"),
        ])
        #expect(orphan.sentAsText)
        #expect(
            try text(orphan).contains(
                #"{"content":[{"text":"Weather?","type":"input_text"}],"role":"user","type":"message"},"#
                    + #"{"content":[{"text":"[tool result: 21C]","type":"input_text"}],"role":"user","type":"message"},"#
            ))
        #expect(!orphan.input.contains { $0.type == "function_call_output" })
    }

    @Test func aReasoningItemWithoutEncryptedContentCannotGoBackAndIsLeftOut() throws {
        let answer = try dto([
            ChatMessage(role: .user, content: "Hi"),
            ChatMessage(
                role: .assistant,
                parts: [.thinking(.encryptedReasoning(summary: ["Greet."], content: "")), .text("Hello.")]),
        ])
        #expect(answer.input.map(\.type) == ["message", "message"])
        #expect(!answer.sentAsText)
    }
}
