import ChatDomain
import ChatTestSupport
import Testing

private let settings = ChatSettings(
    model: "test-model", sampling: [.temperature: .number(0.2), .maxTokens: .wholeNumber(256)], stream: true)
private let systemPrompt = "Answer briefly."
private let system = ChatMessage(role: .system, content: systemPrompt)

private func user(_ text: String, _ state: MessageState = .complete) -> ChatMessage {
    ChatMessage(role: .user, content: text, state: state)
}

private func assistant(_ text: String, _ state: MessageState = .complete) -> ChatMessage {
    ChatMessage(role: .assistant, content: text, state: state)
}

private func newConversation(_ messages: [ChatMessage] = []) -> Conversation {
    Conversation(systemPrompt: systemPrompt, settings: settings, messages: messages)
}

/// What a `send` run in a task of its own left behind.
private struct SendResult: Sendable {
    var firstEvent: ChatEvent?
    var answer: ChatMessage?
    var conversation: Conversation
    var lastError: ChatError?
}

/// Runs `send` in a task, waits until its first event has arrived (or the call has returned),
/// cancels the task, and returns what the call left behind.
private func sendCancellingAfterFirstEvent(
    _ text: String,
    in conversation: Conversation,
    repository: StubGPTRepository
) async -> SendResult {
    let (events, continuation) = AsyncStream<ChatEvent>.makeStream()
    let task = Task {
        let useCase = GPTChatUseCase(repository: repository)
        var conversation = conversation
        let turn = await useCase.send(text, in: &conversation) { continuation.yield($0) }
        continuation.finish()
        return SendResult(answer: turn.answer, conversation: conversation, lastError: turn.error)
    }
    // A failing test must not hang: if the test itself is cancelled (time limit), so is the task.
    return await withTaskCancellationHandler {
        var iterator = events.makeAsyncIterator()
        let first = await iterator.next()
        task.cancel()
        var result = await task.value
        result.firstEvent = first
        return result
    } onCancel: {
        task.cancel()
    }
}

@Suite("GPTChatUseCase", .timeLimit(.minutes(1)))
struct GPTChatUseCaseTests {
    // MARK: Success

    @Test func successReturnsTheAnswerAndAppendsUserAndAssistant() async {
        let stub = StubGPTRepository([.answer([.text("Hel"), .text("lo"), .finished(reason: "stop")])])
        let useCase = GPTChatUseCase(repository: stub)
        var conversation = newConversation()

        let turn = await useCase.send("Hi", in: &conversation) { _ in }

        #expect(turn.answer == assistant("Hello"))
        #expect(conversation.messages == [user("Hi"), assistant("Hello")])
        #expect(turn.error == nil)
    }

    @Test func successForwardsEveryEventInOrder() async {
        let events: [ChatEvent] = [
            .text("One"), .text(", two"), .usage(TokenUsage(promptTokens: 3, completionTokens: 2)),
            .text(", three"), .finished(reason: "stop"),
        ]
        let stub = StubGPTRepository([.answer(events)])
        let useCase = GPTChatUseCase(repository: stub)
        var conversation = newConversation()
        var seen: [ChatEvent] = []

        let turn = await useCase.send("Count", in: &conversation) { seen.append($0) }

        #expect(seen == events)
        #expect(turn.answer?.content == "One, two, three")
    }

    @Test func successAfterAFailureClearsLastError() async {
        let stub = StubGPTRepository([
            .answer([], failure: .connection(.other, message: "refused")),
            .answer([.text("Back")]),
        ])
        let useCase = GPTChatUseCase(repository: stub)
        var conversation = newConversation()

        let first = await useCase.send("First", in: &conversation) { _ in }
        #expect(first.error == .connection(.other, message: "refused"))

        let second = await useCase.send("Second", in: &conversation) { _ in }
        #expect(second.answer == assistant("Back"))
        #expect(second.error == nil)
    }

    @Test func requestCarriesSystemPromptEarlierTurnsNewMessageAndSettings() async {
        let stub = StubGPTRepository(answering: "Fine")
        let useCase = GPTChatUseCase(repository: stub)
        var conversation = newConversation([user("Q1"), assistant("A1")])

        _ = await useCase.send("Q2", in: &conversation) { _ in }

        #expect(
            stub.requests == [
                ChatRequest(messages: [system, user("Q1"), assistant("A1"), user("Q2")], settings: settings)
            ])
    }

    // MARK: Failure

    /// Thinking is not an answer: a failure after a thinking block and before any text is a
    /// failure before any text.
    @Test(arguments: [[], [ChatEvent.thinking(.signed(text: "Let me see.", signature: "sig"))]])
    func failureBeforeAnyTextMarksTheUserMessageFailed(before: [ChatEvent]) async {
        let error = ChatError.server(status: 503, message: "overloaded")
        let stub = StubGPTRepository([.answer(before, failure: error), .answer([.text("Ok")])])
        let useCase = GPTChatUseCase(repository: stub)
        var conversation = newConversation()

        let turn = await useCase.send("Lost", in: &conversation) { _ in }

        #expect(turn.answer == nil)
        #expect(turn.error == error)
        #expect(conversation.messages == [user("Lost", .failed)])
    }

    @Test func failedUserMessageIsLeftOutOfTheNextRequest() async {
        let stub = StubGPTRepository([
            .answer([], failure: .unauthorized(message: "bad key")),
            .answer([.text("Ok")]),
        ])
        let useCase = GPTChatUseCase(repository: stub)
        var conversation = newConversation()

        _ = await useCase.send("Lost", in: &conversation) { _ in }
        _ = await useCase.send("Again", in: &conversation) { _ in }

        #expect(stub.requests.count == 2)
        #expect(stub.requests.last?.messages == [system, user("Again")])
        #expect(conversation.messages == [user("Lost", .failed), user("Again"), assistant("Ok")])
    }

    @Test func partialTextThenFailureKeepsTheInterruptedAnswer() async {
        let error = ChatError.streamCut("connection reset")
        let stub = StubGPTRepository([.answer([.text("Half "), .text("an answer")], failure: error)])
        let useCase = GPTChatUseCase(repository: stub)
        var conversation = newConversation()
        var seen: [ChatEvent] = []

        let turn = await useCase.send("Tell me", in: &conversation) { seen.append($0) }

        #expect(turn.answer == nil)
        #expect(turn.error == error)
        #expect(seen == [.text("Half "), .text("an answer")])
        #expect(conversation.messages == [user("Tell me"), assistant("Half an answer", .interrupted)])
    }

    @Test func interruptedAnswerIsCarriedByTheNextRequest() async {
        let stub = StubGPTRepository([
            .answer([.text("Partial")], failure: .idleTimeout(seconds: 60)),
            .answer([.text("Done")]),
        ])
        let useCase = GPTChatUseCase(repository: stub)
        var conversation = newConversation()

        _ = await useCase.send("Q1", in: &conversation) { _ in }
        _ = await useCase.send("Go on", in: &conversation) { _ in }

        #expect(
            stub.requests.last?.messages == [system, user("Q1"), assistant("Partial", .interrupted), user("Go on")])
    }

    // MARK: Cancellation

    @Test func cancellationMidStreamKeepsThePartialAnswerInterrupted() async {
        let stub = StubGPTRepository([.hang([.text("Partial")])])

        let result = await sendCancellingAfterFirstEvent("Tell me", in: newConversation(), repository: stub)

        #expect(result.firstEvent == .text("Partial"))
        #expect(result.answer == nil)
        #expect(result.lastError == .cancelled)
        #expect(result.conversation.messages == [user("Tell me"), assistant("Partial", .interrupted)])
    }

    @Test func cancellationBeforeAnyTextMarksTheUserMessageFailed() async {
        // A reasoning event lets the test know the stream is running; it is not answer text.
        let stub = StubGPTRepository([.hang([.reasoning("Thinking")])])

        let result = await sendCancellingAfterFirstEvent("Tell me", in: newConversation(), repository: stub)

        #expect(result.firstEvent == .reasoning("Thinking"))
        #expect(result.answer == nil)
        #expect(result.lastError == .cancelled)
        #expect(result.conversation.messages == [user("Tell me", .failed)])
    }

    // MARK: Retry

    @Test func retryAfterAFailureResendsTheLastUserMessage() async {
        let stub = StubGPTRepository([
            .answer([], failure: .rateLimited(retryAfter: 1, quotaExceeded: false, message: "slow down")),
            .answer([.text("Second try")]),
        ])
        let useCase = GPTChatUseCase(repository: stub)
        var conversation = newConversation([user("Q0"), assistant("A0")])

        _ = await useCase.send("Q1", in: &conversation) { _ in }
        var seen: [ChatEvent] = []
        let turn = await useCase.retry(in: &conversation) { seen.append($0) }

        #expect(turn.answer == assistant("Second try"))
        #expect(turn.error == nil)
        #expect(seen == [.text("Second try")])
        #expect(stub.requests.count == 2)
        #expect(stub.requests.last?.messages == [system, user("Q0"), assistant("A0"), user("Q1")])
        #expect(
            conversation.messages == [user("Q0"), assistant("A0"), user("Q1"), assistant("Second try")])
    }

    @Test func retryReplacesAnUnwantedAnswer() async {
        let stub = StubGPTRepository([.answer([.text("Bad")]), .answer([.text("Good")])])
        let useCase = GPTChatUseCase(repository: stub)
        var conversation = newConversation([user("Q0"), assistant("A0")])

        _ = await useCase.send("Q1", in: &conversation) { _ in }
        let turn = await useCase.retry(in: &conversation) { _ in }

        #expect(turn.answer == assistant("Good"))
        #expect(stub.requests.count == 2)
        #expect(stub.requests.last?.messages == [system, user("Q0"), assistant("A0"), user("Q1")])
        #expect(conversation.messages == [user("Q0"), assistant("A0"), user("Q1"), assistant("Good")])
    }

    @Test func retryReplacesAnInterruptedAnswer() async {
        let stub = StubGPTRepository([
            .answer([.text("Cut")], failure: .streamCut("eof")),
            .answer([.text("Whole")]),
        ])
        let useCase = GPTChatUseCase(repository: stub)
        var conversation = newConversation()

        _ = await useCase.send("Q", in: &conversation) { _ in }
        let turn = await useCase.retry(in: &conversation) { _ in }

        #expect(turn.answer == assistant("Whole"))
        #expect(stub.requests.last?.messages == [system, user("Q")])
        #expect(conversation.messages == [user("Q"), assistant("Whole")])
    }

    @Test func retryWithNoMessagesReturnsNilAndClearsLastError() async {
        let stub = StubGPTRepository([.answer([], failure: .server(status: 500, message: "boom"))])
        let useCase = GPTChatUseCase(repository: stub)
        var conversation = newConversation()
        let failed = await useCase.send("Q", in: &conversation) { _ in }
        #expect(failed.error != nil)
        conversation.clear()
        var calledBack = false

        let turn = await useCase.retry(in: &conversation) { _ in calledBack = true }

        #expect(turn.answer == nil)
        #expect(turn.error == nil)
        #expect(!calledBack)
        #expect(stub.requests.count == 1)
        #expect(conversation.messages.isEmpty)
    }

    // MARK: Reasoning and usage

    @Test func reasoningIsKeptApartFromTheContent() async {
        let stub = StubGPTRepository([
            .answer([.reasoning("Six times "), .reasoning("seven"), .text("42"), .finished(reason: "stop")])
        ])
        let useCase = GPTChatUseCase(repository: stub)
        var conversation = newConversation()
        var seen: [ChatEvent] = []

        let turn = await useCase.send("6 x 7?", in: &conversation) { seen.append($0) }

        #expect(turn.answer?.content == "42")
        #expect(turn.answer?.reasoning == "Six times seven")
        #expect(conversation.messages.last == turn.answer)
        #expect(seen.prefix(2) == [.reasoning("Six times "), .reasoning("seven")])
    }

    @Test func answerWithoutReasoningHasNoReasoning() async {
        let stub = StubGPTRepository(answering: "Plain answer")
        let useCase = GPTChatUseCase(repository: stub)
        var conversation = newConversation()

        let turn = await useCase.send("Q", in: &conversation) { _ in }

        #expect(turn.answer?.content == "Plain answer")
        #expect(turn.answer?.reasoning == nil)
    }

    @Test func usageIsStoredOnTheAnswer() async {
        let usage = TokenUsage(promptTokens: 12, completionTokens: 3)
        let stub = StubGPTRepository([.answer([.text("Hi"), .finished(reason: "stop"), .usage(usage)])])
        let useCase = GPTChatUseCase(repository: stub)
        var conversation = newConversation()

        let turn = await useCase.send("Q", in: &conversation) { _ in }

        #expect(turn.answer?.usage == usage)
        #expect(conversation.messages.last?.usage == usage)
        #expect(conversation.lastUsage == usage)
    }

    // MARK: Models

    @Test func modelsReturnsTheRepositoryList() async {
        let stub = StubGPTRepository(answering: "unused")
        let useCase = GPTChatUseCase(repository: stub)
        stub.setModels(.failure(.connection(.other, message: "down")))
        #expect(await useCase.models() == .failure(.connection(.other, message: "down")))
        let list = [ModelInfo(id: "gpt-a", ownedBy: "openai"), ModelInfo(id: "local-b")]
        stub.setModels(.success(list))

        let models = await useCase.models()

        #expect(models == .success(list))
    }

    @Test func modelsFailureReturnsTheError() async {
        let stub = StubGPTRepository(answering: "unused")
        let useCase = GPTChatUseCase(repository: stub)
        stub.setModels(.failure(.unauthorized(message: "bad key")))

        let models = await useCase.models()

        #expect(models == .failure(.unauthorized(message: "bad key")))
    }
}
