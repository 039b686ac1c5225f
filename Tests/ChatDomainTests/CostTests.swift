import ChatTestSupport
import Synchronization
import Testing

@testable import ChatDomain

/// A budget's consent that answers as told, and counts its questions.
private final class StubBudgetConsent: BudgetConsent {
    private let answers: Mutex<[Double?]>
    private let questions = Mutex<[Double]>([])

    init(_ answers: [Double?]) {
        self.answers = Mutex(answers)
    }

    /// The spending each question was asked at.
    var asked: [Double] { questions.withLock { $0 } }

    func raise(spent: Double, limit: Double) async -> Double? {
        questions.withLock { $0.append(spent) }
        return answers.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }
}

private let price = ModelPrice(input: 1, output: 4, cacheRead: 0.1, cacheWrite: 1.25, webSearch: 10)
private let book = PriceBook([PriceBook.Entry("m", price)])

/// An answer with usage: 1,000 prompt tokens and 500 completion tokens cost $0.003 at `price`.
private func answer(_ text: String, model: String? = nil) -> StubGPTRepository.Script {
    .answer([
        .text(text), .finished(reason: "stop"),
        .usage(TokenUsage(promptTokens: 1_000, completionTokens: 500, model: model)),
    ])
}

@Suite("What answers cost")
struct CostTests {
    // MARK: Prices

    @Test("the cost takes each kind of token at its price, cached and written prompt tokens apart")
    func costOfUsage() {
        // 1,000 prompt tokens, 600 of them read from the cache and 100 written: 300 × 1 + 600 ×
        // 0.1 + 100 × 1.25, and 200 answer tokens × 4; two searches at $10 a thousand.
        var usage = TokenUsage(promptTokens: 1_000, completionTokens: 200, cacheReadTokens: 600, cacheWriteTokens: 100)
        #expect(abs(price.cost(of: usage) - (300 + 60 + 125 + 800) / 1_000_000) < 1e-12)
        usage.webSearches = 2
        #expect(abs(price.cost(of: usage) - ((300 + 60 + 125 + 800) / 1_000_000 + 0.02)) < 1e-12)
        // Cache prices not known: the input price.
        let plain = ModelPrice(input: 1, output: 4)
        #expect(abs(plain.cost(of: usage) - (1_000 + 800) / 1_000_000) < 1e-12)
    }

    @Test("a prompt past a model's long-prompt size costs the whole request at its rates")
    func longPrompts() {
        let tiered = ModelPrice(
            input: 0.10, output: 0.50, cacheRead: 0.01, cacheWrite: 0.125,
            longPrompt: .init(above: 100_000, input: 0.50, output: 2.50, cacheRead: 0.05, cacheWrite: 0.625))
        let short = TokenUsage(promptTokens: 100_000, completionTokens: 1_000)
        let long = TokenUsage(promptTokens: 100_001, completionTokens: 1_000, cacheReadTokens: 1)
        #expect(abs(tiered.cost(of: short) - (100_000 * 0.10 + 1_000 * 0.50) / 1_000_000) < 1e-12)
        #expect(abs(tiered.cost(of: long) - (100_000 * 0.50 + 1 * 0.05 + 1_000 * 2.50) / 1_000_000) < 1e-12)
    }

    @Test("a name matches an exact entry or a glob, else its name without a snapshot date; a sibling never")
    func lookups() {
        let table = PriceBook([
            .init("gpt-4o-mini", ModelPrice(input: 0.15, output: 0.6)),
            .init("gpt-4o", ModelPrice(input: 2.5, output: 10)),
            .init("claude-haiku-4-5", ModelPrice(input: 1, output: 5)),
            .init("claude-sonnet-5", ModelPrice(input: 2, output: 10)),
            .init("my-*-tune?", ModelPrice(input: 9, output: 9)),
        ])
        #expect(table.price(of: "gpt-4o-mini")?.input == 0.15)
        #expect(table.price(of: "gpt-4o-mini-2024-07-18")?.input == 0.15)
        #expect(table.price(of: "gpt-4o-2024-08-06")?.input == 2.5)
        #expect(table.price(of: "claude-haiku-4-5-20251001")?.input == 1)
        #expect(table.price(of: "gpt-4o-mini-realtime-preview") == nil)
        #expect(table.price(of: "claude-sonnet-5-5") == nil, "Sonnet 5.5 is not Sonnet 5")
        #expect(table.price(of: "gpt-4o-mini-2024-07") == nil)
        #expect(table.price(of: "my-big-tune1")?.input == 9)
        #expect(table.price(of: "my-big-tune12") == nil)
        // The model the server reported first, then the one asked for.
        #expect(table.price(reported: "gpt-4o-2024-08-06", asked: "gpt-4o-mini")?.input == 2.5)
        #expect(table.price(reported: "deployment-7", asked: "gpt-4o-mini")?.input == 0.15)
        #expect(table.cost(of: TokenUsage(promptTokens: 10, completionTokens: 10), asked: "local") == nil)
    }

    @Test("globs: * any run, ? one character, the rest as it is")
    func globs() {
        #expect(PriceBook.matches("abc", "abc"))
        #expect(PriceBook.matches("abc", "a*"))
        #expect(PriceBook.matches("abc", "*c"))
        #expect(PriceBook.matches("abc", "a?c"))
        #expect(PriceBook.matches("aXbXc", "a*b*c"))
        #expect(PriceBook.matches("", "*"))
        #expect(!PriceBook.matches("abcd", "abc"))
        #expect(!PriceBook.matches("abc", "a?"))
        #expect(!PriceBook.matches("ab", "a*bc"))
    }

    // MARK: The use case

    @Test("each answer's usage carries its cost, and the run adds it up")
    func usageCarriesItsCost() async {
        let spending = RunSpending()
        let repository = StubGPTRepository([answer("one"), answer("two", model: "m-2099-01-01")])
        let useCase = GPTChatUseCase(repository: repository, costs: RunCosts(prices: book, spending: spending))
        var conversation = Conversation(settings: ChatSettings(model: "m"))
        var costs: [Double?] = []
        for text in ["a", "b"] {
            _ = await useCase.send(text, in: &conversation) { event in
                if case .usage(let usage) = event { costs.append(usage.costUSD) }
            }
        }
        #expect(costs == [0.003, 0.003])
        #expect(conversation.messages.last?.usage?.costUSD == 0.003)
        #expect(abs(spending.spent - 0.006) < 1e-12)
        #expect(!spending.hasUnknownCosts)
    }

    @Test("past the budget, with no one to ask, no request is sent and the question is kept, failed")
    func budgetStops() async {
        let spending = RunSpending(limit: 0.005)
        let repository = StubGPTRepository([answer("one"), answer("two"), answer("three")])
        let useCase = GPTChatUseCase(repository: repository, costs: RunCosts(prices: book, spending: spending))
        var conversation = Conversation(settings: ChatSettings(model: "m"))
        #expect(await useCase.send("a", in: &conversation) { _ in }.error == nil)
        #expect(await useCase.send("b", in: &conversation) { _ in }.error == nil)
        // $0.006 spent of $0.005: the third is not sent.
        let stopped = await useCase.send("c", in: &conversation) { _ in }
        #expect(stopped.error == .budgetReached(spent: 0.006, limit: 0.005))
        #expect(repository.requests.count == 2)
        #expect(conversation.messages.last?.content == "c")
        #expect(conversation.messages.last?.state == .failed)
    }

    @Test("past the budget, the consent may raise it, and is asked again when that is spent too")
    func consentRaises() async {
        let consent = StubBudgetConsent([0.007, nil])
        let spending = RunSpending(limit: 0.003)
        let repository = StubGPTRepository([answer("one"), answer("two"), answer("three")])
        let useCase = GPTChatUseCase(
            repository: repository, costs: RunCosts(prices: book, spending: spending, consent: consent))
        var conversation = Conversation(settings: ChatSettings(model: "m"))
        _ = await useCase.send("a", in: &conversation) { _ in }
        #expect(await useCase.send("b", in: &conversation) { _ in }.error == nil)
        #expect(spending.limit == 0.007)
        let third = await useCase.send("c", in: &conversation) { _ in }
        #expect(third.error == nil)
        #expect(consent.asked == [0.003])
        // $0.006 of $0.007: the third went; a fourth would ask again.
        #expect(repository.requests.count == 3)
    }

    @Test("a tool loop's next round is a request like any: past the budget it is not sent")
    func toolRoundsCount() async {
        let calling = StubGPTRepository.Script.answer([
            .toolCalls([ToolCall(id: "a", name: "time__now", arguments: .object([:]))]),
            .finished(reason: "tool_calls"), .usage(TokenUsage(promptTokens: 1_000, completionTokens: 500)),
        ])
        let repository = StubGPTRepository([calling, answer("noon")])
        let useCase = GPTChatUseCase(
            repository: repository, tools: ToolLoop(source: StubToolSource(), consent: StubConsent()),
            costs: RunCosts(prices: book, spending: RunSpending(limit: 0.002)))
        var conversation = Conversation(settings: ChatSettings(model: "m"))
        let turn = await useCase.send("Time?", in: &conversation) { _ in }
        #expect(turn.error == .budgetReached(spent: 0.003, limit: 0.002))
        #expect(repository.requests.count == 1)
        // The round's results are kept (the call ran), so the conversation can go on later.
        #expect(conversation.messages.map(\.role) == [.user, .assistant, .tool])
    }

    @Test("with a budget, a cost no one knows is said once a run")
    func unknownCostIsSaidOnce() async {
        let spending = RunSpending(limit: 1)
        let repository = StubGPTRepository([answer("one"), .answer([.text("two"), .finished(reason: "stop")])])
        let useCase = GPTChatUseCase(repository: repository, costs: RunCosts(prices: book, spending: spending))
        var conversation = Conversation(settings: ChatSettings(model: "local"))
        var notices: [RequestNotice] = []
        for text in ["a", "b"] {
            _ = await useCase.send(text, in: &conversation) { event in
                if case .notice(let notice) = event { notices.append(notice) }
            }
        }
        #expect(notices == [.costUnknown(model: "local")])
        #expect(spending.hasUnknownCosts)
        #expect(spending.spent == 0)
        // Without a budget there is nothing to keep, and nothing is said.
        let quiet = GPTChatUseCase(
            repository: StubGPTRepository([answer("x")]), costs: RunCosts(prices: book, spending: RunSpending()))
        var other = Conversation(settings: ChatSettings(model: "local"))
        var said = false
        _ = await quiet.send("a", in: &other) { event in if case .notice = event { said = true } }
        #expect(!said)
    }
}
