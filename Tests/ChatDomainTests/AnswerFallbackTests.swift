import ChatDomain
import ChatTestSupport
import Testing

/// The use case's fallback (`AnswerFallback`): which failures send the same conversation to the
/// next profile, with what, and what the answer records.
@Suite struct AnswerFallbackTests {
    static let settings = ChatSettings(model: "main-model", sampling: [.temperature: .number(0.3)])
    static let claude = ChatSettings(model: "claude-model", provider: "anthropic")

    /// A conversation with one question asked through `primary`, `fallback` listing `second` as
    /// profile `claude`; its turn, the conversation after it and the events.
    static func ask(
        primary: StubGPTRepository, second: StubGPTRepository, namedModel: String? = nil,
        settings: ChatSettings = settings
    ) async -> (Turn, Conversation, [ChatEvent]) {
        let useCase = GPTChatUseCase(
            repository: primary,
            fallback: AnswerFallback(
                profile: "main", steps: [.init(profile: "claude", repository: second, settings: claude)],
                namedModel: namedModel))
        var conversation = Conversation(systemPrompt: nil, settings: settings)
        var events: [ChatEvent] = []
        let turn = await useCase.send("question", in: &conversation) { events.append($0) }
        return (turn, conversation, events)
    }

    static let answer = StubGPTRepository.Script.answer([.text("From Claude"), .finished(reason: "end_turn")])

    @Test(arguments: [
        ChatError.server(status: 503, message: "Service Unavailable"),
        .server(status: 529, message: "Overloaded"),
        .overloaded(message: "Overloaded"),
        .rateLimited(retryAfter: nil, quotaExceeded: false, message: "slow down"),
        .notFound(url: "http://x/v1/chat/completions", message: "model main-model not found", clue: .messageNamesModel),
    ])
    func aFailureAnotherServerMayNotHaveGoesToTheNextProfile(error: ChatError) async {
        let primary = StubGPTRepository([.answer([], failure: error)])
        let second = StubGPTRepository([Self.answer])
        let (turn, conversation, events) = await Self.ask(primary: primary, second: second)
        #expect(turn.answer?.content == "From Claude")
        #expect(turn.answer?.answeredBy == AnsweredBy(profile: "claude", model: "claude-model"))
        #expect(events.first == .fellBack(from: "main", to: "claude", model: "claude-model", after: error))
        // The same conversation, with the profile's own model and settings.
        let request = try? #require(second.requests.first)
        #expect(request?.messages == primary.requests.first?.messages)
        #expect(request?.settings == Self.claude)
        // The conversation keeps its own settings; its question is answered, not failed.
        #expect(conversation.settings == Self.settings)
        #expect(conversation.messages.map(\.state) == [.complete, .complete])
    }

    @Test(arguments: [
        ChatError.badRequest(status: 400, message: "bad temperature"),
        .unauthorized(message: "bad key"),
        .forbidden(message: "not this model"),
        .connection(.refused, message: "refused"),
        .streamError(message: "context too long"),
        .cancelled,
    ])
    func aFailureTheRequestOrTheKeyMadeDoesNotFallBack(error: ChatError) async {
        let primary = StubGPTRepository([.answer([], failure: error)])
        let second = StubGPTRepository([Self.answer])
        let (turn, conversation, events) = await Self.ask(primary: primary, second: second)
        #expect(turn.error == error)
        #expect(second.requests.isEmpty)
        #expect(!events.contains { if case .fellBack = $0 { true } else { false } })
        #expect(conversation.messages.last?.state == .failed)
    }

    @Test func aModelNotFoundThatThePersonNamedStaysTheError() async {
        let error = ChatError.notFound(url: "u", message: "model main-model not found", clue: .messageNamesModel)
        let primary = StubGPTRepository([.answer([], failure: error)])
        let second = StubGPTRepository([Self.answer])
        let (turn, _, _) = await Self.ask(primary: primary, second: second, namedModel: "main-model")
        #expect(turn.error == error)
        #expect(second.requests.isEmpty)
    }

    @Test func afterTextWasShownThereIsNoFallback() async {
        let error = ChatError.server(status: 500, message: "boom")
        let primary = StubGPTRepository([.answer([.text("Half")], failure: error)])
        let second = StubGPTRepository([Self.answer])
        let (turn, conversation, _) = await Self.ask(primary: primary, second: second)
        #expect(turn.error == error)
        #expect(second.requests.isEmpty)
        #expect(conversation.messages.last?.content == "Half")
        #expect(conversation.messages.last?.state == .interrupted)
    }

    @Test func whenTheLastProfileFailsTooItsErrorIsTheTurns() async {
        let primary = StubGPTRepository([.answer([], failure: .server(status: 503, message: "a"))])
        let second = StubGPTRepository([.answer([], failure: .server(status: 502, message: "b"))])
        let (turn, conversation, events) = await Self.ask(primary: primary, second: second)
        #expect(turn.error == .server(status: 502, message: "b"))
        #expect(events.filter { if case .fellBack = $0 { true } else { false } }.count == 1)
        #expect(conversation.messages.map(\.state) == [.failed])
    }
}

extension AnswerFallbackTests {
    @Test func aRequestRefusedBeforeAnyAnswerCostsNothingAndIsNotAnUnknownCost() async {
        let spending = RunSpending(limit: 1)
        let book = PriceBook([.init("claude-model", ModelPrice(input: 1, output: 5))])
        let primary = StubGPTRepository([.answer([], failure: .server(status: 503, message: "busy"))])
        let second = StubGPTRepository([
            .answer([
                .text("From Claude"), .usage(TokenUsage(promptTokens: 1_000_000, completionTokens: 0)),
                .finished(reason: "end_turn"),
            ])
        ])
        let useCase = GPTChatUseCase(
            repository: primary, costs: RunCosts(prices: book, spending: spending),
            fallback: AnswerFallback(
                profile: "main", steps: [.init(profile: "claude", repository: second, settings: Self.claude)]))
        var conversation = Conversation(systemPrompt: nil, settings: Self.settings)
        var notices: [RequestNotice] = []
        let turn = await useCase.send("question", in: &conversation) { event in
            if case .notice(let notice) = event { notices.append(notice) }
        }
        #expect(turn.answer?.content == "From Claude")
        #expect(notices.isEmpty)
        #expect(!spending.hasUnknownCosts)
        #expect(spending.spent == 1)
    }
}
