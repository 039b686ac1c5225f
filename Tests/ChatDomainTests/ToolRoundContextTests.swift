import ChatDomain
import Testing

/// A round of tool calls counts toward `maxContextTokens` by what it sends: its results' text.
@Suite("Tool rounds and max_context_tokens")
struct ToolRoundContextTests {
    @Test func aLongResultIsCountedAndItsRoundLeftOutWhole() {
        var settings = ChatSettings(model: "m")
        settings.maxContextTokens = 1_000
        let call = ToolCall(id: "a", name: "files__read", arguments: .object(["path": .string("/tmp/big")]))
        let conversation = Conversation(
            settings: settings,
            messages: [
                ChatMessage(role: .user, content: "Read it"),
                ChatMessage(role: .assistant, parts: [.toolCall(call)]),
                ChatMessage(
                    role: .tool,
                    parts: [
                        .toolResult(ToolResult(callID: "a", content: [.text(String(repeating: "x", count: 8_000))]))
                    ]
                ),
                ChatMessage(role: .assistant, content: "It is long."),
                ChatMessage(role: .user, content: "Thanks"),
            ])
        let (messages, omitted) = conversation.requestMessagesWithinContext
        // The round alone is about 2,000 tokens: it goes, and nothing after the question it
        // answered begins the request.
        #expect(messages.map(\.role) == [.user])
        #expect(omitted == 4)
    }
}
