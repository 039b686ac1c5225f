import ChatDomain
import Testing

private let settings = ChatSettings(model: "test-model", temperature: 0.7, maxTokens: 100, stream: false)

private func user(_ text: String, _ state: MessageState = .complete) -> ChatMessage {
    ChatMessage(role: .user, content: text, state: state)
}

private func assistant(_ text: String, _ state: MessageState = .complete, usage: TokenUsage? = nil) -> ChatMessage {
    ChatMessage(role: .assistant, content: text, state: state, usage: usage)
}

@Suite("Conversation")
struct ConversationTests {
    // MARK: requestMessages

    @Test func requestMessagesStartWithTheSystemPrompt() {
        let conversation = Conversation(
            systemPrompt: "Be brief.", settings: settings, messages: [user("Q"), assistant("A"), user("Q2")])

        #expect(
            conversation.requestMessages == [
                ChatMessage(role: .system, content: "Be brief."), user("Q"), assistant("A"), user("Q2"),
            ])
    }

    @Test(arguments: [nil, ""] as [String?])
    func missingOrEmptySystemPromptIsOmitted(_ prompt: String?) {
        let conversation = Conversation(systemPrompt: prompt, settings: settings, messages: [user("Q")])

        #expect(conversation.requestMessages == [user("Q")])
    }

    @Test func failedUserMessagesAreLeftOut() {
        let conversation = Conversation(
            settings: settings,
            messages: [user("Lost", .failed), user("Q"), assistant("A"), user("Lost again", .failed)])

        #expect(conversation.requestMessages == [user("Q"), assistant("A")])
    }

    @Test func emptyAnswersAreLeftOut() {
        let conversation = Conversation(
            settings: settings,
            messages: [user("Q1"), assistant(""), user("Q2"), assistant("", .interrupted), user("Q3")])

        #expect(conversation.requestMessages == [user("Q1"), user("Q2"), user("Q3")])
    }

    @Test func interruptedAnswersWithTextAreKept() {
        let conversation = Conversation(
            settings: settings, messages: [user("Q"), assistant("Part", .interrupted), user("Go on")])

        #expect(conversation.requestMessages == [user("Q"), assistant("Part", .interrupted), user("Go on")])
    }

    // MARK: turnCount

    @Test func turnCountCountsAnsweredUserMessages() {
        let conversation = Conversation(
            settings: settings,
            messages: [
                user("Q1"), assistant("A1"), user("Lost", .failed), user("Q2"), assistant("Part", .interrupted),
                user("Q3"),
            ])

        #expect(conversation.turnCount == 2)
    }

    @Test func emptyConversationHasNoTurns() {
        #expect(Conversation(systemPrompt: "S", settings: settings).turnCount == 0)
    }

    // MARK: lastUsage

    @Test func lastUsageIsThatOfTheMostRecentAnswerWithUsage() {
        let first = TokenUsage(promptTokens: 10, completionTokens: 5)
        let second = TokenUsage(promptTokens: 20, completionTokens: 7, totalTokens: 30)
        var conversation = Conversation(
            settings: settings, messages: [user("Q1"), assistant("A1", usage: first)])
        #expect(conversation.lastUsage == first)

        conversation.append(user("Q2"))
        conversation.append(assistant("A2", usage: second))
        #expect(conversation.lastUsage == second)

        conversation.append(user("Q3"))
        conversation.append(assistant("A3"))
        #expect(conversation.lastUsage == second)
    }

    @Test func lastUsageIsNilWithoutUsage() {
        let conversation = Conversation(settings: settings, messages: [user("Q"), assistant("A")])

        #expect(conversation.lastUsage == nil)
    }

    // MARK: clear

    @Test func clearForgetsMessagesButKeepsSystemPromptAndSettings() {
        var conversation = Conversation(
            systemPrompt: "Be brief.", settings: settings,
            messages: [user("Q"), assistant("A", usage: TokenUsage(promptTokens: 1, completionTokens: 1))])

        conversation.clear()

        #expect(conversation.messages.isEmpty)
        #expect(conversation.systemPrompt == "Be brief.")
        #expect(conversation.settings == settings)
        #expect(conversation.turnCount == 0)
        #expect(conversation.lastUsage == nil)
        #expect(conversation.requestMessages == [ChatMessage(role: .system, content: "Be brief.")])
    }
}
