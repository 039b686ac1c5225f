import ChatDomain
import Testing

@testable import ChatProviders

private let clock = ToolDefinition(
    name: "time__now", description: "The time", parameters: .object(["type": .string("object")]))
private let settings = ChatSettings(model: "claude-test", stream: true)

private func call(_ id: String, _ arguments: JSONValue = .object([:]), name: String = "time__now") -> ToolCall {
    ToolCall(id: id, name: name, arguments: arguments)
}

private func result(_ id: String, _ text: String, isError: Bool = false) -> MessagePart {
    .toolResult(ToolResult(callID: id, content: [.text(text)], isError: isError))
}

/// The Messages body for `messages`, as the provider sends it.
private func body(
    _ messages: [ChatMessage], tools: [ToolDefinition] = [clock], thinkingBudget: Int? = nil,
    settings: ChatSettings = settings
) throws -> String {
    let dto = try MessagesRequestDTO(
        ChatRequest(messages: messages, settings: settings, tools: tools),
        thinking: thinkingBudget.map { .budget(tokens: $0) }, cache: false)
    return String(decoding: try #require(dto.jsonBytes), as: UTF8.self)
}

/// A round of the tool loop with thinking: the question, the answer that thought (signed and
/// redacted) and called two tools, and their results (one with an image, one an error).
private let round: [ChatMessage] = [
    ChatMessage(role: .system, content: "Be brief."),
    ChatMessage(role: .user, content: "Time in Paris?"),
    ChatMessage(
        role: .assistant,
        parts: [
            .thinking(.signed(text: "Use the tool.", signature: "c2lnMQ==")), .thinking(.redacted(data: "ZW5j")),
            .text("Checking."), .toolCall(call("toolu_1", .object(["zone": .string("Europe/Paris")]))),
            .toolCall(call("toolu_2")),
        ]),
    ChatMessage(
        role: .tool,
        parts: [
            .toolResult(
                ToolResult(
                    callID: "toolu_1",
                    content: [
                        .text("12:00"),
                        .image(
                            ImageAttachment(
                                path: "t.png", mimeType: "image/png", byteCount: 3, sha256: "", data: [1, 2, 3])),
                    ])), result("toolu_2", "the user declined to run this tool call", isError: true),
        ]),
]

private let question = #"{"content":[{"text":"Time in Paris?","type":"text"}],"role":"user"}"#
private let calls =
    j(
        #"{"text":"Checking.","type":"text"},"#,
        #"{"id":"toolu_1","input":{"zone":"Europe/Paris"},"name":"time__now","type":"tool_use"},"#,
        #"{"id":"toolu_2","input":{},"name":"time__now","type":"tool_use"}],"role":"assistant"}"#)
private let results =
    j(
        #"{"content":[{"content":[{"text":"12:00","type":"text"},"#,
        #"{"source":{"data":"AQID","media_type":"image/png","type":"base64"},"type":"image"}],"#,
        #""tool_use_id":"toolu_1","type":"tool_result"},"#,
        #"{"content":[{"text":"the user declined to run this tool call","type":"text"}],"is_error":true,"#,
        #""tool_use_id":"toolu_2","type":"tool_result"}"#)
private let tools = #""tools":[{"description":"The time","input_schema":{"type":"object"},"name":"time__now"}]"#

/// The pieces, one after another.
private func j(_ pieces: String...) -> String { pieces.joined() }

@Suite("Anthropic: tools and thinking in the request body")
struct AnthropicToolRequestTests {
    @Test("a tool loop's request: tools, thinking (signed, redacted) before tool_use, tool_result first")
    func toolLoopWithThinking() throws {
        #expect(
            try body(round, thinkingBudget: 2048)
                == j(
                    #"{"max_tokens":8192,"messages":["#, question, ",",
                    #"{"content":[{"signature":"c2lnMQ==","thinking":"Use the tool.","type":"thinking"},"#,
                    #"{"data":"ZW5j","type":"redacted_thinking"},"#, calls, ",", results, #"],"role":"user"}],"#,
                    #""model":"claude-test","stream":true,"system":[{"text":"Be brief.","type":"text"}],"#,
                    #""thinking":{"budget_tokens":2048,"type":"enabled"},"#, tools, "}"))
    }

    @Test("without thinking asked for, an answer's thinking in the tool loop goes back unmodified")
    func unaskedThinkingInALoop() throws {
        // An adaptive model may think unasked: the answer that called the tools goes back whole.
        #expect(
            try body(round)
                == j(
                    #"{"max_tokens":8192,"messages":["#, question, ",",
                    #"{"content":[{"signature":"c2lnMQ==","thinking":"Use the tool.","type":"thinking"},"#,
                    #"{"data":"ZW5j","type":"redacted_thinking"},"#, calls, ",", results, #"],"role":"user"}],"#,
                    #""model":"claude-test","stream":true,"system":[{"text":"Be brief.","type":"text"}],"#, tools, "}"))
        // Once the loop is over (an answer without calls, then a new question), earlier turns'
        // thinking is not sent without thinking asked for.
        let next =
            round + [
                ChatMessage(role: .assistant, content: "It is noon."), ChatMessage(role: .user, content: "Thanks"),
            ]
        #expect(!(try body(next)).contains(#""thinking""#))
    }

    @Test("a message after the results joins their user turn, after them; every request carries the tools")
    func followingMessageJoinsTheResults() throws {
        let messages = round + [ChatMessage(role: .user, content: "And Tokyo?")]
        #expect(
            try body(messages).hasSuffix(
                j(
                    results, #",{"text":"And Tokyo?","type":"text"}],"role":"user"}],"model":"claude-test","#,
                    #""stream":true,"system":[{"text":"Be brief.","type":"text"}],"#, tools, "}")))
    }

    @Test("another provider's ids: made fit for the API, each once, results matched in order")
    func otherProvidersIDs() throws {
        let messages = [
            ChatMessage(role: .user, content: "Q"),
            ChatMessage(
                role: .assistant, parts: [.toolCall(call("call.1")), .toolCall(call("")), .toolCall(call(""))]),
            ChatMessage(role: .tool, parts: [result("call.1", "a"), result("", "b"), result("", "c")]),
        ]
        let text = try body(messages)
        #expect(
            text.contains(
                j(
                    #"{"content":[{"id":"call_1","input":{},"name":"time__now","type":"tool_use"},"#,
                    #"{"id":"toolu_chat_2","input":{},"name":"time__now","type":"tool_use"},"#,
                    #"{"id":"toolu_chat_3","input":{},"name":"time__now","type":"tool_use"}],"role":"assistant"},"#,
                    #"{"content":[{"content":[{"text":"a","type":"text"}],"tool_use_id":"call_1","type":"tool_result"},"#,
                    #"{"content":[{"text":"b","type":"text"}],"tool_use_id":"toolu_chat_2","type":"tool_result"},"#,
                    #"{"content":[{"text":"c","type":"text"}],"tool_use_id":"toolu_chat_3","type":"tool_result"}],"#,
                    #""role":"user"}"#)), "\(text)")
    }

    @Test("a call whose arguments are not an object, and its result, go as text, after the results")
    func argumentsNotAnObject() throws {
        let messages = [
            ChatMessage(role: .user, content: "Q"),
            ChatMessage(
                role: .assistant, parts: [.toolCall(call("c1", .string("{oops"), name: "bad")), .toolCall(call("c2"))]),
            ChatMessage(
                role: .tool,
                parts: [result("c1", "the arguments are not a JSON object", isError: true), result("c2", "12:00")]),
        ]
        #expect(
            try body(messages).contains(
                j(
                    #"{"content":[{"text":"[tool call: bad {oops]","type":"text"},"#,
                    #"{"id":"c2","input":{},"name":"time__now","type":"tool_use"}],"role":"assistant"},"#,
                    #"{"content":[{"content":[{"text":"12:00","type":"text"}],"tool_use_id":"c2","type":"tool_result"},"#,
                    #"{"text":"[tool error of bad: the arguments are not a JSON object]","type":"text"}],"role":"user"}"#
                )
            ))
    }

    @Test("a conversation with tool rounds continued without tools: the rounds go as text, no tools member")
    func noToolsNow() throws {
        let text = try body(Array(round.prefix(4)) + [ChatMessage(role: .user, content: "Thanks")], tools: [])
        #expect(!text.contains("tool_use") && !text.contains("tool_result") && !text.contains(#""tools""#))
        #expect(
            text.contains(
                j(
                    #"{"content":[{"text":"Checking.","type":"text"},"#,
                    #"{"text":"[tool call: time__now {\"zone\":\"Europe/Paris\"}]","type":"text"},"#,
                    #"{"text":"[tool call: time__now {}]","type":"text"}],"role":"assistant"},"#,
                    #"{"content":[{"text":"[tool result of time__now: 12:00\n[an image (image/png) that cannot be shown here]]","type":"text"},"#,
                    #"{"text":"[tool error of time__now: the user declined to run this tool call]","type":"text"}],"role":"user"},"#,
                    #"{"content":[{"text":"Thanks","type":"text"}],"role":"user"}"#)), "\(text)")
    }

    @Test("a call left without a result is sent as text")
    func callWithoutResult() throws {
        let messages = [
            ChatMessage(role: .user, content: "Q"), ChatMessage(role: .assistant, parts: [.toolCall(call("c1"))]),
            ChatMessage(role: .user, content: "Never mind"),
        ]
        #expect(
            try body(messages).contains(
                j(
                    #"{"content":[{"text":"[tool call: time__now {}]","type":"text"}],"role":"assistant"},"#,
                    #"{"content":[{"text":"Never mind","type":"text"}],"role":"user"}"#)))
    }

    @Test("thinking on, but the turn being continued began without it (another provider's): no thinking")
    func turnWithoutThinking() throws {
        let messages = [
            ChatMessage(role: .user, content: "Q"), ChatMessage(role: .assistant, parts: [.toolCall(call("c1"))]),
            ChatMessage(role: .tool, parts: [result("c1", "12:00")]),
        ]
        let text = try body(messages, thinkingBudget: 2048)
        #expect(!text.contains(#""thinking""#))
        #expect(text.hasPrefix(#"{"max_tokens":8192,"#))
        // A message after the results joins their turn on the wire: still none.
        let joined = messages + [ChatMessage(role: .user, content: "And?")]
        #expect(!(try body(joined, thinkingBudget: 2048)).contains(#""thinking""#))
        // A new turn asks for thinking again.
        let next =
            messages + [ChatMessage(role: .assistant, content: "Noon."), ChatMessage(role: .user, content: "Q2")]
        #expect(try body(next, thinkingBudget: 2048).contains(#""thinking":{"budget_tokens":2048,"type":"enabled"}"#))
    }

    @Test("a schema is asked for as a forced call of the answer tool; with thinking it is refused")
    func schema() throws {
        var withSchema = settings
        withSchema.responseSchema = ResponseSchema(
            schema: .object(["type": .string("object"), "required": .array([.string("ok")])]))
        let messages = [ChatMessage(role: .user, content: "Q")]
        #expect(
            try body(messages, tools: [], settings: withSchema)
                == j(
                    #"{"max_tokens":8192,"messages":[{"content":[{"text":"Q","type":"text"}],"role":"user"}],"#,
                    #""model":"claude-test","stream":true,"tool_choice":{"name":"answer","type":"tool"},"#,
                    #""tools":[{"description":"Give your answer by calling this tool: its input is the whole answer.","#,
                    #""input_schema":{"required":["ok"],"type":"object"},"name":"answer"}]}"#))
        #expect(throws: ChatError.unsupportedSettings(name: "schema", other: "thinking_budget", provider: "anthropic"))
        {
            try body(messages, tools: [], thinkingBudget: 2048, settings: withSchema)
        }
    }

    @Test("the OpenAI provider takes no thinking blocks: a signed block's text goes before the answer's, as text")
    func openAISendsThinkingAsText() throws {
        func openAI(_ messages: [ChatMessage]) throws -> ChatCompletionRequestDTO {
            ChatCompletionRequestDTO(
                ChatRequest(messages: messages, settings: settings, tools: [clock]), includeUsage: false)
        }
        func text(_ dto: ChatCompletionRequestDTO) throws -> String {
            String(decoding: try #require(dto.jsonBytes), as: UTF8.self)
        }
        var asText = round
        asText[2] = ChatMessage(
            role: .assistant,
            parts: [.text("[thinking: Use the tool.]\n\nChecking.")]
                + round[2].parts.filter { if case .toolCall = $0 { true } else { false } })
        #expect(round[2].thinkingBlocks.count == 2)
        #expect(try text(openAI(round)) == (try text(openAI(asText))))
        #expect(try !text(openAI(round)).contains("c2lnMQ==") && !text(openAI(round)).contains("ZW5j"))
        // Said (once a run, by the provider) where there was thinking to turn into text; an
        // image in a tool result is sent, after the results (`ToolResultImageRequestTests`).
        #expect(try openAI(Array(round[...2])).sentAsText)
        #expect(try !openAI(Array(asText[...2])).sentAsText)
        #expect(try !openAI(Array(asText[...3])).sentAsText)
        // A redacted block alone sends nothing of it: nothing is said.
        var redactedOnly = Array(asText[...2])
        redactedOnly[2] = ChatMessage(
            role: .assistant, parts: [.thinking(.redacted(data: "ZW5j")), .text("Checking.")])
        #expect(try !openAI(redactedOnly).sentAsText)
        // Anthropic's ids and calls carry over as they are.
        #expect(try text(openAI(round)).contains(#""id":"toolu_1""#))
        #expect(try text(openAI(round)).contains(#""tool_call_id":"toolu_2""#))
    }

    @Test("a second round's answer (no thinking of its own) keeps thinking on, the first answer's blocks sent")
    func secondRound() throws {
        let messages =
            round + [
                ChatMessage(role: .assistant, parts: [.toolCall(call("toolu_3"))]),
                ChatMessage(role: .tool, parts: [result("toolu_3", "13:00")]),
            ]
        let text = try body(messages, thinkingBudget: 2048)
        #expect(text.contains(#""thinking":{"budget_tokens":2048,"type":"enabled"}"#))
        #expect(text.contains(#"{"signature":"c2lnMQ==","thinking":"Use the tool.","type":"thinking"}"#))
        #expect(
            text.contains(
                j(
                    #"{"content":[{"id":"toolu_3","input":{},"name":"time__now","type":"tool_use"}],"role":"assistant"},"#,
                    #"{"content":[{"content":[{"text":"13:00","type":"text"}],"tool_use_id":"toolu_3","#,
                    #""type":"tool_result"}],"role":"user"}]"#)), "\(text)")
    }
}
