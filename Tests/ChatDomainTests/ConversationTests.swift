import ChatDomain
import Testing

private let settings = ChatSettings(
    model: "test-model", sampling: [.temperature: .number(0.7), .maxTokens: .wholeNumber(100)], stream: false)

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

@Suite struct ContextCalibrationTests {
    private func conversation(promptTokensReported: Int?, limit: Int) -> Conversation {
        let text = String(repeating: "word ", count: 80)  // 400 characters: about 104 estimated tokens
        var conversation = Conversation(settings: ChatSettings(model: "m", maxContextTokens: limit))
        conversation.append(ChatMessage(role: .user, content: text))
        let usage = promptTokensReported.map { TokenUsage(promptTokens: $0, completionTokens: 10) }
        conversation.append(ChatMessage(role: .assistant, content: text, usage: usage))
        conversation.append(ChatMessage(role: .user, content: "next"))
        return conversation
    }

    @Test func withoutUsageTheCheapEstimateDecides() {
        let fitting = conversation(promptTokensReported: nil, limit: 300)
        #expect(fitting.tokensPerEstimatedToken == 1)
        #expect(fitting.requestMessagesWithinContext.omitted == 0)
    }

    @Test func serverUsageCorrectsTheEstimate() {
        // The server counted twice the estimate for the first request: the same limit no longer fits.
        let calibrated = conversation(promptTokensReported: 208, limit: 300)
        #expect(calibrated.tokensPerEstimatedToken == 2)
        let (messages, omitted) = calibrated.requestMessagesWithinContext
        #expect(omitted == 2)
        #expect(messages.map(\.content) == ["next"])
    }

    @Test func calibrationIsClamped() {
        #expect(conversation(promptTokensReported: 1_000_000, limit: 300).tokensPerEstimatedToken == 4)
        #expect(conversation(promptTokensReported: 1, limit: 300).tokensPerEstimatedToken == 0.25)
    }

    @Test func questionsAreNumberedByTheirPlaceAndABranchKeepsTheFirstMessages() {
        var conversation = Conversation(settings: ChatSettings(model: "m"))
        for text in ["q1", "a1", "a1 again", "q2", "a2", "q3"] {
            conversation.append(ChatMessage(role: text.hasPrefix("q") ? .user : .assistant, content: text))
        }
        #expect(conversation.questionIndices == [0, 3, 5])
        conversation.keepFirst(3)
        #expect(conversation.messages.map(\.content) == ["q1", "a1", "a1 again"])
        conversation.keepFirst(10)
        #expect(conversation.messages.count == 3)
        conversation.branchedFrom = BranchPoint(conversationID: "k3v9x2qa", messageID: 4, turn: 1)
        conversation.clear()
        #expect(conversation.messages.isEmpty && conversation.branchedFrom == nil)
    }
}
