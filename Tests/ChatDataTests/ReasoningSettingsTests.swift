import ChatDomain
import ChatPresentation
import Foundation
import Testing

@testable import ChatConfig

/// The settings of reasoning: `effort` (`--effort`) at every level, one way of asking a model to
/// think per level (`effort` or `thinking_budget`), `thinking_form` for Anthropic's servers only,
/// `show_reasoning` (`--hide-reasoning`), and the `openai-responses` provider with OpenAI's key
/// rules.
@Suite struct ReasoningSettingsTests {
    private static let environment = [
        "HOME": "/nonexistent", "OPENAI_API_KEY": "sk-openai", "ANTHROPIC_API_KEY": "sk-ant",
    ]

    private func resolve(
        config text: String? = nil, profile: String? = nil, role: String? = nil, flags: [(String, String?)] = [],
        environment: [String: String] = Self.environment
    ) async throws(SettingsError) -> ResolvedSettings {
        var overrides = SettingOverrides()
        let path = text.map { text in
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("reasoning-\(UUID()).json").path
            try? text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        defer { if let path { try? FileManager.default.removeItem(atPath: path) } }
        overrides.configPath = path
        overrides.profile = profile
        overrides.role = role
        for (key, text) in flags {
            guard let setting = SettingsTable.setting(key) else { throw .noSuchSetting(flag: key, trueOrFalse: false) }
            try overrides.set(setting, fromFlag: text)
        }
        return try await SettingsResolver(environment: environment).resolve(overrides)
    }

    private func failure(
        config text: String? = nil, profile: String? = nil, role: String? = nil, flags: [(String, String?)] = []
    ) async -> String? {
        do {
            _ = try await resolve(config: text, profile: profile, role: role, flags: flags)
            return nil
        } catch {
            return ErrorWording.line(for: error)
        }
    }

    // MARK: effort

    @Test func effortComesFromEachLevelTheNearestWinning() async throws {
        let config = #"""
            {"effort": "low", "profiles": {"p": {"effort": "medium"}},
             "roles": {"r": {"prompt": "Think.", "effort": "high"}}}
            """#
        #expect(try await resolve(config: config).chat.sampling[.effort] == .effort(.low))
        #expect(try await resolve(config: config, profile: "p").chat.sampling[.effort] == .effort(.medium))
        #expect(try await resolve(config: config, profile: "p", role: "r").chat.sampling[.effort] == .effort(.high))
        let flagged = try await resolve(config: config, profile: "p", role: "r", flags: [("effort", "max")])
        #expect(flagged.chat.sampling[.effort] == .effort(.max))
        #expect(flagged.given.sampling[.effort] == .effort(.max))
        #expect(try await resolve().chat.sampling[.effort] == nil)
    }

    @Test func anEffortThatIsNoLevelIsOneLineNamingTheLevels() async {
        let fromFlag = await failure(flags: [("effort", "extreme")])
        #expect(fromFlag?.contains("--effort") == true)
        #expect(fromFlag?.contains("none, minimal, low, medium, high, xhigh or max") == true, "\(fromFlag ?? "")")
        #expect(fromFlag?.contains(#""extreme""#) == true)
        let fromFile = await failure(config: #"{"effort": 3}"#)
        #expect(fromFile?.contains("effort") == true, "\(fromFile ?? "")")
    }

    // MARK: effort or thinking_budget

    @Test func effortAndABudgetInOneLevelAreOneLine() async {
        #expect(
            await failure(
                config: #"{"provider": "anthropic"}"#, flags: [("effort", "high"), ("thinking_budget", "2048")])
                == "effort (from --effort) and thinking_budget (from --thinking) both say how much a model thinks: "
                + "give one of them")
        let profile = await failure(
            config: #"{"profiles": {"c": {"provider": "anthropic", "effort": "low", "thinking_budget": 4096}}}"#,
            profile: "c")
        #expect(profile?.contains("effort (from profile c) and thinking_budget (from profile c)") == true)
    }

    @Test func theNearerLevelWinsBetweenEffortAndABudget() async throws {
        let config = #"""
            {"profiles": {"c": {"provider": "anthropic", "effort": "low"},
                          "b": {"provider": "anthropic", "thinking_budget": 4096}}}
            """#
        let budgetFlag = try await resolve(config: config, profile: "c", flags: [("thinking_budget", "8000")])
        #expect(budgetFlag.server.thinkingBudget == 8000)
        #expect(budgetFlag.chat.sampling[.effort] == nil)
        let effortFlag = try await resolve(config: config, profile: "b", flags: [("effort", "high")])
        #expect(effortFlag.server.thinkingBudget == nil)
        #expect(effortFlag.chat.sampling[.effort] == .effort(.high))
    }

    // MARK: thinking_form

    @Test func thinkingFormIsAnthropicsAndOneOfTwoWords() async throws {
        let anthropic = try await resolve(config: #"{"provider": "anthropic", "thinking_form": "budget"}"#)
        #expect(anthropic.server.thinkingForm == .budget)
        #expect(try await resolve(config: #"{"provider": "anthropic"}"#).server.thinkingForm == nil)
        let openAI = await failure(config: #"{"thinking_form": "adaptive"}"#)
        #expect(openAI?.contains("thinking_form") == true)
        #expect(openAI?.contains("is for the anthropic provider") == true, "\(openAI ?? "")")
        let wrong = await failure(config: #"{"provider": "anthropic", "thinking_form": "deep"}"#)
        #expect(wrong?.contains("expected adaptive or budget") == true, "\(wrong ?? "")")
    }

    // MARK: show_reasoning

    @Test func reasoningIsShownUnlessTheConfigOrTheFlagSaysNot() async throws {
        let shown = try await resolve()
        #expect(shown.server.reasoning.isOn)
        let configured = try await resolve(config: #"{"show_reasoning": false}"#)
        #expect(!configured.server.reasoning.isOn)
        let flagged = try await resolve(flags: [("show_reasoning", nil)])
        #expect(!flagged.server.reasoning.isOn)
        #expect(SettingsTable.setting("show_reasoning")?.flag?.longName == "--hide-reasoning")
    }

    // MARK: openai-responses

    @Test func theResponsesProviderHasOpenAIsURLAndKeyRules() async throws {
        let settings = try await resolve(config: #"{"provider": "openai-responses", "model": "gpt-5.2"}"#)
        #expect(settings.server.provider == .openAIResponses)
        #expect(settings.server.baseURL == "https://api.openai.com/v1")
        #expect(settings.server.apiKey == "sk-openai")
        #expect(settings.chat.provider == "openai-responses")

        // Anthropic's key never goes to it.
        var overrides = SettingOverrides()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("responses-\(UUID()).json").path
        try #"{"provider": "openai-responses"}"#.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        overrides.configPath = path
        do {
            _ = try await SettingsResolver(environment: ["HOME": "/nonexistent", "ANTHROPIC_API_KEY": "sk-ant"])
                .resolve(overrides)
            Issue.record("resolved with Anthropic's key")
        } catch {
            let said = ErrorWording.line(for: error)
            #expect(said.hasPrefix("no API key for https://api.openai.com/v1: set OPENAI_API_KEY"), "\(said)")
        }
    }
}
