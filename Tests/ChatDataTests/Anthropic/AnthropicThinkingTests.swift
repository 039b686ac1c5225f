import ChatDomain
import ChatTestSupport
import Foundation
import Synchronization
import Testing

@testable import ChatHTTP
@testable import ChatProviders

/// Lines written from any thread (`--verbose`'s).
private final class Logged: Sendable {
    private let lines = Mutex<[String]>([])
    func add(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

/// Anthropic's two forms of thinking, against a scripted Messages server: the form each model
/// takes (`AnthropicModels`), the effort mapped as the issue's table says, `thinking_form`'s
/// override, the request sent once more in the other form after a 400 that asks for it (and so
/// for the rest of the run), and the notes the person gets.
@Suite(.onOwnThread) struct AnthropicThinkingTests {
    /// Anthropic's 400 for the budget form on a model that takes only adaptive thinking
    /// (microsoft/vscode#311862, as /work/notes/anthropic-2026.md has it).
    static let budgetRefused =
        #"{"type":"error","error":{"type":"invalid_request_error","message":"\"thinking.type.enabled\" is not "#
        + #"supported for this model. Use \"thinking.type.adaptive\" and \"output_config.effort\" to control "#
        + #"thinking behavior."},"request_id":"req_011CaJU3vKXaxzSVvwFW2cHt"}"#
    /// Its 400 for the adaptive form on a model before 4.6 (pensarai/apex#890).
    static let adaptiveRefused =
        #"{"type":"error","error":{"type":"invalid_request_error","message":"adaptive thinking is not supported "#
        + #"on this model"}}"#

    fileprivate static func repository(
        _ server: LoopbackServer, budget: Int? = nil, form: ThinkingForm? = nil, showsThinking: Bool = true,
        log: Logged? = nil
    ) -> ServerGPTRepository {
        var configuration = ServerConfiguration(
            baseURL: server.baseURL, provider: .anthropic, apiKey: "sk-ant-KEY", connectTimeout: 5, idleTimeout: 10,
            proxy: "", retry: RetryPolicy(maxRetries: 0))
        if let log { configuration.diagnostics = { log.add($0) } }
        configuration.thinkingBudget = budget
        configuration.thinkingForm = form
        configuration.reasoning = ReasoningSwitch(shown: showsThinking)
        return ServerGPTRepository(server: configuration, transport: CurlHTTPClient())
    }

    static func request(_ model: String, effort: ReasoningEffort? = nil, maxTokens: Int? = nil) -> ChatRequest {
        var sampling: SamplingValues = [:]
        if let effort { sampling[.effort] = .effort(effort) }
        if let maxTokens { sampling[.maxTokens] = .wholeNumber(maxTokens) }
        return ChatRequest(
            messages: [ChatMessage(role: .user, content: "Hi")],
            settings: ChatSettings(model: model, sampling: sampling, stream: true))
    }

    /// What a request asked of thinking: the `thinking` object, `output_config`, `max_tokens`.
    static func asked(_ request: RecordedRequest) throws -> (thinking: [String: Any]?, effort: String?, maxTokens: Int?)
    {
        let body = try AnthropicProviderTests.json(request)
        let output = body["output_config"] as? [String: Any]
        return (body["thinking"] as? [String: Any], output?["effort"] as? String, body["max_tokens"] as? Int)
    }

    static func answered() -> [ServerStep] {
        AnthropicProviderTests.stream(AnthropicStreamExamples.thinking)
    }

    // MARK: The effort, per model

    @Test(
        "an adaptive model gets adaptive thinking, summarized, with Anthropic's level for each effort",
        arguments: [
            (ReasoningEffort.minimal, "low"), (.low, "low"), (.medium, "medium"), (.high, "high"), (.xhigh, "xhigh"),
            (.max, "max"),
        ])
    func adaptiveModelsTakeTheLevel(effort: ReasoningEffort, level: String) async throws {
        for model in ["claude-opus-4-7", "claude-sonnet-4-6", "claude-opus-5"] {
            let server = try LoopbackServer { _, _ in Self.answered() }
            defer { LoopbackTestHelpers.stopInBackground(server) }
            let result = await AnthropicProviderTests.collect(
                Self.repository(server).streamChat(Self.request(model, effort: effort)))
            #expect(result.error == nil)
            let asked = try Self.asked(try #require(server.requests.first))
            #expect(asked.thinking?["type"] as? String == "adaptive", "\(model)")
            #expect(asked.thinking?["display"] as? String == "summarized")
            #expect(asked.thinking?["budget_tokens"] == nil)
            #expect(asked.effort == level, "\(model) \(effort)")
        }
    }

    @Test(
        "a model before 4.6 gets a budget for each effort, with max_tokens above it",
        arguments: [
            (ReasoningEffort.minimal, 1024), (.low, 2048), (.medium, 8192), (.high, 16384), (.xhigh, 32000),
            (.max, 64000),
        ])
    func budgetModelsTakeTokens(effort: ReasoningEffort, tokens: Int) async throws {
        let server = try LoopbackServer { _, _ in Self.answered() }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        _ = await AnthropicProviderTests.collect(
            Self.repository(server).streamChat(
                Self.request("claude-sonnet-4-5-20250929", effort: effort, maxTokens: 1000))
        )
        let asked = try Self.asked(try #require(server.requests.first))
        #expect(asked.thinking?["type"] as? String == "enabled")
        #expect(asked.thinking?["budget_tokens"] as? Int == tokens)
        #expect(asked.effort == nil)
        #expect((asked.maxTokens ?? 0) > tokens)
    }

    @Test func effortNoneSendsNoThinkingAndSaysOnceThatAnAdaptiveModelMayStillThink() async throws {
        let server = try LoopbackServer { _, _ in Self.answered() }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let repository = Self.repository(server)
        let first = await AnthropicProviderTests.collect(
            repository.streamChat(Self.request("claude-opus-4-7", effort: ReasoningEffort.none)))
        let second = await AnthropicProviderTests.collect(
            repository.streamChat(Self.request("claude-opus-4-7", effort: ReasoningEffort.none)))
        for request in server.requests {
            let asked = try Self.asked(request)
            #expect(asked.thinking == nil)
            #expect(asked.effort == nil)
        }
        #expect(first.events.first == .notice(.mayThinkUnasked(model: "claude-opus-4-7")))
        #expect(!second.events.contains { if case .notice = $0 { true } else { false } })
        // A model that takes only a budget does not think unasked: nothing to say.
        let budgetServer = try LoopbackServer { _, _ in Self.answered() }
        defer { LoopbackTestHelpers.stopInBackground(budgetServer) }
        let budgetModel = await AnthropicProviderTests.collect(
            Self.repository(budgetServer).streamChat(Self.request("claude-sonnet-4-5", effort: ReasoningEffort.none)))
        #expect(try Self.asked(try #require(budgetServer.requests.first)).thinking == nil)
        #expect(!budgetModel.events.contains { if case .notice = $0 { true } else { false } })
    }

    @Test func hiddenReasoningAsksAnAdaptiveModelToOmitItsThinkingText() async throws {
        let server = try LoopbackServer { _, _ in Self.answered() }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        _ = await AnthropicProviderTests.collect(
            Self.repository(server, showsThinking: false).streamChat(Self.request("claude-opus-4-7", effort: .high)))
        let asked = try Self.asked(try #require(server.requests.first))
        #expect(asked.thinking?["display"] as? String == "omitted")
        #expect(asked.effort == "high")
    }

    // MARK: --thinking TOKENS

    @Test func aBudgetForAnAdaptiveOnlyModelBecomesTheNearestEffortSaidOnce() async throws {
        let server = try LoopbackServer { _, _ in Self.answered() }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let repository = Self.repository(server, budget: 10000)
        let first = await AnthropicProviderTests.collect(repository.streamChat(Self.request("claude-opus-4-7")))
        let second = await AnthropicProviderTests.collect(repository.streamChat(Self.request("claude-opus-4-7")))
        #expect(first.error == nil)
        #expect(server.requests.count == 2, "never a 400 for the person: no request was refused")
        let asked = try Self.asked(try #require(server.requests.first))
        #expect(asked.thinking?["type"] as? String == "adaptive")
        #expect(asked.effort == "medium", "10000 tokens is nearest medium's 8192")
        #expect(
            first.events.first == .notice(.budgetAsEffort(tokens: 10000, effort: .medium, model: "claude-opus-4-7")))
        #expect(!second.events.contains { if case .notice = $0 { true } else { false } })
    }

    @Test func aBudgetGoesAsABudgetToAModelThatTakesOneEvenIfItPrefersAdaptive() async throws {
        for model in ["claude-sonnet-4-6", "a-model-the-table-does-not-know"] {
            let server = try LoopbackServer { _, _ in Self.answered() }
            defer { LoopbackTestHelpers.stopInBackground(server) }
            let result = await AnthropicProviderTests.collect(
                Self.repository(server, budget: 4096).streamChat(Self.request(model)))
            let asked = try Self.asked(try #require(server.requests.first))
            #expect(asked.thinking?["type"] as? String == "enabled", "\(model)")
            #expect(asked.thinking?["budget_tokens"] as? Int == 4096)
            #expect(!result.events.contains { if case .notice = $0 { true } else { false } })
        }
    }

    @Test func anEffortWinsOverARunsBudgetWhenTheConversationSetsOne() async throws {
        // `/set effort` in the REPL, with `thinking_budget` from the profile.
        let server = try LoopbackServer { _, _ in Self.answered() }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        _ = await AnthropicProviderTests.collect(
            Self.repository(server, budget: 4096).streamChat(Self.request("claude-sonnet-4-6", effort: .high)))
        let asked = try Self.asked(try #require(server.requests.first))
        #expect(asked.thinking?["type"] as? String == "adaptive")
        #expect(asked.effort == "high")
    }

    // MARK: thinking_form

    @Test func thinkingFormOverridesTheTable() async throws {
        let server = try LoopbackServer { _, _ in Self.answered() }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        _ = await AnthropicProviderTests.collect(
            Self.repository(server, form: .budget).streamChat(Self.request("claude-opus-4-7", effort: .high)))
        _ = await AnthropicProviderTests.collect(
            Self.repository(server, form: .adaptive).streamChat(Self.request("claude-sonnet-4-5", effort: .high)))
        let budget = try Self.asked(server.requests[0])
        #expect(budget.thinking?["type"] as? String == "enabled")
        #expect(budget.thinking?["budget_tokens"] as? Int == 16384)
        let adaptive = try Self.asked(server.requests[1])
        #expect(adaptive.thinking?["type"] as? String == "adaptive")
        #expect(adaptive.effort == "high")
    }

    // MARK: The other form, after a 400

    @Test func anUnknownModelThatRefusesAdaptiveThinkingIsAskedForABudgetAndSoForTheRun() async throws {
        let server = try LoopbackServer { request, _ in
            request.bodyText.contains(#""adaptive""#)
                ? ServerStep.json(status: 400, Self.adaptiveRefused) : Self.answered()
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let log = Logged()
        let repository = Self.repository(server, log: log)
        let first = await AnthropicProviderTests.collect(
            repository.streamChat(Self.request("our-gateway-claude", effort: .high)))
        #expect(first.error == nil)
        #expect(first.events.contains(ChatEvent.text("The greatest common divisor of 1071 and 462 is **21**.")))
        #expect(server.requests.count == 2)
        #expect(try Self.asked(server.requests[0]).thinking?["type"] as? String == "adaptive")
        let retried = try Self.asked(server.requests[1])
        #expect(retried.thinking?["type"] as? String == "enabled")
        #expect(retried.thinking?["budget_tokens"] as? Int == 16384)
        #expect(retried.effort == nil)
        // Said with -v only: a line of the engine's.
        #expect(log.all.contains { $0.hasPrefix("* ") && $0.contains("budget form of thinking") })

        // The next request of the run goes the learned way at once.
        _ = await AnthropicProviderTests.collect(
            repository.streamChat(Self.request("our-gateway-claude", effort: .low)))
        #expect(server.requests.count == 3)
        #expect(try Self.asked(server.requests[2]).thinking?["budget_tokens"] as? Int == 2048)
    }

    @Test func aModelThatRefusesABudgetIsAskedTheAdaptiveWay() async throws {
        let server = try LoopbackServer { request, _ in
            request.bodyText.contains(#""budget_tokens""#)
                ? ServerStep.json(status: 400, Self.budgetRefused) : Self.answered()
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await AnthropicProviderTests.collect(
            Self.repository(server, budget: 30000).streamChat(Self.request("claude-next-unlisted")))
        #expect(result.error == nil)
        #expect(server.requests.count == 2)
        let retried = try Self.asked(server.requests[1])
        #expect(retried.thinking?["type"] as? String == "adaptive")
        #expect(retried.effort == "xhigh", "30000 tokens is nearest xhigh's 32000")
    }

    @Test func aBadRequestAboutSomethingElseIsNotSentAgain() async throws {
        let body =
            #"{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: must be at least 1"}}"#
        let server = try LoopbackServer { _, _ in ServerStep.json(status: 400, body) }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await AnthropicProviderTests.collect(
            Self.repository(server).streamChat(Self.request("claude-opus-4-7", effort: .high)))
        #expect(result.error == .badRequest(status: 400, message: "max_tokens: must be at least 1"))
        #expect(server.requests.count == 1)
    }

    @Test func aRefusedLevelReachesThePersonAsTheServerSaidIt() async throws {
        // A model that does not take `max` (Opus 4.5's effort is low … high).
        let body =
            #"{"type":"error","error":{"type":"invalid_request_error","message":"output_config.effort: "#
            + #"Input should be 'low', 'medium' or 'high'"}}"#
        let server = try LoopbackServer { _, _ in ServerStep.json(status: 400, body) }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await AnthropicProviderTests.collect(
            Self.repository(server, form: .adaptive).streamChat(Self.request("claude-opus-4-5", effort: .max)))
        #expect(
            result.error
                == .badRequest(status: 400, message: "output_config.effort: Input should be 'low', 'medium' or 'high'"))
        #expect(server.requests.count == 1)
    }
}
