import ChatTestSupport
import Testing

@testable import ChatDomain

/// Compaction in the domain: where a compaction may end (never inside a tool round), what a
/// request carries after one, what it does to the estimate, and that a summary the conversation
/// no longer has the messages of goes.
@Suite struct CompactionTests {
    static let call = ToolCall(id: "a", name: "files__read", arguments: .object(["path": .string("/tmp/big")]))

    /// A question answered through a tool round (thinking signed, as Anthropic sends it), a
    /// second exchange, and the question being answered.
    static func conversation(window: Int? = nil) -> Conversation {
        var settings = ChatSettings(model: "m")
        settings.maxContextTokens = window
        return Conversation(
            systemPrompt: "Be brief.", settings: settings,
            messages: [
                ChatMessage(role: .user, content: "Read it"),
                ChatMessage(
                    role: .assistant, parts: [.thinking(.signed(text: "Reading.", signature: "sig")), .toolCall(call)]),
                ChatMessage(
                    role: .tool,
                    parts: [
                        .toolResult(ToolResult(callID: "a", content: [.text(String(repeating: "x", count: 4_000))]))
                    ]
                ),
                ChatMessage(role: .assistant, content: "It is long."),
                ChatMessage(role: .user, content: "And then?"),
                ChatMessage(role: .assistant, content: "Nothing."),
                ChatMessage(role: .user, content: "Thanks"),
            ])
    }

    @Test func aCompactionEndsAtAQuestionNeverInsideAToolRound() {
        let conversation = Self.conversation()
        // Plenty of room: the first question after which the rest fits.
        #expect(GPTChatUseCase.compactionEnd(of: conversation, fitting: 1_000, scale: 1) == 4)
        // No room at all: everything before the question being answered.
        #expect(GPTChatUseCase.compactionEnd(of: conversation, fitting: 1, scale: 1) == 6)
        // One question only: nothing before it to summarise.
        let single = Conversation(
            settings: ChatSettings(model: "m"), messages: [ChatMessage(role: .user, content: "Hi")])
        #expect(GPTChatUseCase.compactionEnd(of: single, fitting: 1, scale: 1) == nil)
    }

    @Test func requestsCarryTheSummaryInPlaceOfWhatItCovers() {
        var conversation = Self.conversation()
        conversation.compaction = Compaction(summary: "They read a long file.", coveredMessages: 4)
        let messages = conversation.requestMessages
        #expect(messages.map(\.role) == [.system, .user, .assistant, .user, .assistant, .user])
        #expect(messages[1].content == Compaction.summaryLead + "They read a long file.")
        #expect(messages[2].content == Compaction.acknowledgement)
        #expect(messages[3].content == "And then?")
        // The estimate drops with what the summary stands for.
        #expect(Conversation.estimate(messages) < Conversation.estimate(Self.conversation().requestMessages) / 4)
    }

    @Test func aSummaryOfMessagesNoLongerThereGoes() {
        var conversation = Self.conversation()
        conversation.compaction = Compaction(summary: "S", coveredMessages: 6)
        conversation.removeLast()
        #expect(conversation.compaction != nil)
        conversation.removeLastExchange()
        #expect(conversation.compaction == nil, "the exchange it covered was undone")
        let loaded = Conversation(
            settings: ChatSettings(model: "m"), messages: [ChatMessage(role: .user, content: "Hi")],
            compaction: Compaction(summary: "S", coveredMessages: 3))
        #expect(loaded.compaction == nil)
    }

    @Test func theSummaryRequestAsksWithTheInstructionsAndNoTools() async throws {
        let repository = StubGPTRepository(answering: "A summary.")
        let useCase = GPTChatUseCase(repository: repository)
        var conversation = Self.conversation()
        conversation.append(ChatMessage(role: .assistant, content: "You are welcome."))
        let result = await useCase.compact(&conversation, instructions: "keep file names")
        #expect(try result.get() == 8)
        #expect(conversation.compaction == Compaction(summary: "A summary.", coveredMessages: 8))
        let request = try #require(repository.requests.first)
        #expect(request.tools.isEmpty)
        #expect(request.messages.first?.role == .system)
        // The tool round goes whole, thinking and all (the providers send it as text with no
        // tools offered), and what is asked comes last.
        #expect(request.messages[2].toolCalls == [Self.call])
        #expect(request.messages[3].toolResults.first?.callID == "a")
        #expect(request.messages.last?.content.hasSuffix("In particular: keep file names") == true)
        // Nothing new since: nothing to do, nothing sent.
        #expect(try await useCase.compact(&conversation, instructions: nil).get() == 0)
        #expect(repository.requests.count == 1)
    }

    @Test func aSummaryThatFailsLeavesTheConversationAsItWas() async {
        let repository = StubGPTRepository([.answer([], failure: .server(status: 503, message: "busy"))])
        let useCase = GPTChatUseCase(repository: repository)
        var conversation = Self.conversation()
        conversation.append(ChatMessage(role: .assistant, content: "You are welcome."))
        let before = conversation
        let result = await useCase.compact(&conversation, instructions: nil)
        #expect(result == .failure(.server(status: 503, message: "busy")))
        #expect(conversation == before)
    }

    @Test func windowsAreLookedUpByNameAndUndatedName() {
        let windows = ContextWindows([.init("claude-haiku-4-5", 200_000), .init("gpt-4o", 128_000)])
        #expect(windows.tokens(of: "claude-haiku-4-5-20251001") == 200_000)
        #expect(windows.tokens(of: "gpt-4o-2024-08-06") == 128_000)
        #expect(windows.tokens(of: "gpt-4o-mini") == nil)
        // A router's vendor prefix aside.
        #expect(windows.tokens(of: "anthropic/claude-haiku-4-5") == 200_000)
    }
}
