import ChatDomain
import Foundation
import Testing

@testable import ChatConfig

/// `"provider": "anthropic"`: Anthropic's defaults, and where its key comes from.
/// `ANTHROPIC_API_KEY` goes only to Anthropic-provider requests and `OPENAI_API_KEY` never does;
/// a configured key stays with its own origin; with nothing naming a server or a key but
/// `ANTHROPIC_API_KEY`, the built-in `anthropic` profile is used.
@Suite struct AnthropicSettingsTests {
    private static let noHome = ["HOME": "/nonexistent"]

    private func config(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("anthropic-\(UUID()).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func resolve(
        _ environment: [String: String], config text: String? = nil, profile: String? = nil, baseURL: String? = nil,
        role: String? = nil
    ) async throws -> ResolvedSettings {
        var overrides = SettingOverrides()
        let path = try text.map(config)
        defer { if let path { try? FileManager.default.removeItem(atPath: path) } }
        overrides.configPath = path
        overrides.profile = profile
        overrides.role = role
        if let baseURL { try overrides.set("base_url", text: baseURL, flag: "--base-url") }
        return try await SettingsResolver(environment: environment.merging(Self.noHome) { $1 }).resolve(overrides)
    }

    private func error(
        _ environment: [String: String], config text: String? = nil, profile: String? = nil
    ) async -> SettingsError? {
        do {
            _ = try await resolve(environment, config: text, profile: profile)
            return nil
        } catch {
            return error as? SettingsError
        }
    }

    @Test func theTopLevelProviderUsesAnthropicsDefaultsAndItsKey() async throws {
        let settings = try await resolve(
            ["ANTHROPIC_API_KEY": "sk-ant", "OPENAI_API_KEY": "sk-openai", "OPENAI_BASE_URL": "https://o.example/v1"],
            config: #"{"provider": "anthropic"}"#)
        #expect(settings.server.provider == .anthropic)
        #expect(settings.server.baseURL == "https://api.anthropic.com/v1")
        #expect(settings.chat.model == "claude-haiku-4-5")
        #expect(settings.server.apiKey == "sk-ant")
    }

    @Test func openAIsKeyNeverGoesToAnthropic() async {
        let missing = await error(["OPENAI_API_KEY": "sk-openai"], config: #"{"provider": "anthropic"}"#)
        #expect(
            missing.map(line)?.hasPrefix("no API key for https://api.anthropic.com/v1: set ANTHROPIC_API_KEY") == true)
    }

    @Test func anthropicsKeyNeverGoesToOpenAI() async {
        let missing = await error(["ANTHROPIC_API_KEY": "sk-ant"], config: #"{"base_url": "https://o.example/v1"}"#)
        #expect(missing.map(line)?.hasPrefix("no API key for https://o.example/v1: set OPENAI_API_KEY") == true)
    }

    @Test func withNothingElseNamedAnthropicsKeyChoosesTheBuiltInProfile() async throws {
        let settings = try await resolve(["ANTHROPIC_API_KEY": "sk-ant"])
        #expect(settings.profile == "anthropic")
        #expect(settings.server.provider == .anthropic)
        #expect(settings.server.baseURL == "https://api.anthropic.com/v1")
        #expect(settings.server.apiKey == "sk-ant")
        // OPENAI_API_KEY (or OPENAI_BASE_URL) names OpenAI: it stays the default.
        for environment in [["OPENAI_API_KEY": "sk-openai"], ["OPENAI_BASE_URL": "http://127.0.0.1:9/v1"]] {
            let openAI = try await resolve(environment.merging(["ANTHROPIC_API_KEY": "sk-ant"]) { $1 })
            #expect(openAI.server.provider == .openAI)
            #expect(openAI.server.apiKey == environment["OPENAI_API_KEY"])
            #expect(openAI.profile == nil)
        }
        // So does --base-url.
        let flagged = try await resolve(["ANTHROPIC_API_KEY": "sk-ant"], baseURL: "http://127.0.0.1:9/v1")
        #expect(flagged.server.provider == .openAI)
        #expect(flagged.server.apiKey == nil)
    }

    @Test func whatTheConfigAddsToTheBuiltInProfileCountsWhenItIsChosenByItself() async throws {
        let settings = try await resolve(
            ["ANTHROPIC_API_KEY": "sk-ant"], config: #"{"profiles": {"anthropic": {"model": "claude-opus-4-1"}}}"#)
        #expect(settings.profile == "anthropic")
        #expect(settings.chat.model == "claude-opus-4-1")
        #expect(settings.server.provider == .anthropic)
    }

    @Test func theBuiltInProfileTakesAnthropicsKeyEvenBesideOpenAIs() async throws {
        let settings = try await resolve(
            ["ANTHROPIC_API_KEY": "sk-ant", "OPENAI_API_KEY": "sk-openai"], profile: "anthropic")
        #expect(settings.server.provider == .anthropic)
        #expect(settings.server.apiKey == "sk-ant")
        #expect(settings.chat.model == "claude-haiku-4-5")
    }

    @Test func anAnthropicProfileWithItsOwnBaseURLGetsAnthropicsKey() async throws {
        let settings = try await resolve(
            ["ANTHROPIC_API_KEY": "sk-ant", "OPENAI_API_KEY": "sk-openai"],
            config: #"{"profiles": {"proxy": {"provider": "anthropic", "base_url": "https://proxy.example/v1"}}}"#,
            profile: "proxy")
        #expect(settings.server.baseURL == "https://proxy.example/v1")
        #expect(settings.server.apiKey == "sk-ant")
    }

    @Test func aTopLevelKeyGoesOnlyToItsOwnProvider() async throws {
        let text = #"{"api_key": "sk-top", "profiles": {"claude": {"provider": "anthropic"}}}"#
        let missing = await error([:], config: text, profile: "claude")
        #expect(missing.map(line)?.contains("set ANTHROPIC_API_KEY") == true)
        let anthropicTop = try await resolve([:], config: #"{"provider": "anthropic", "api_key": "sk-ant-top"}"#)
        #expect(anthropicTop.server.apiKey == "sk-ant-top")
    }

    @Test func aProfilesOwnKeyIsItsOwn() async throws {
        let settings = try await resolve(
            ["ANTHROPIC_API_KEY": "sk-ant"],
            config: #"{"profiles": {"claude": {"provider": "anthropic", "api_key": "sk-profile"}}}"#, profile: "claude")
        #expect(settings.server.apiKey == "sk-profile")
    }

    @Test func thinkingAndCacheReachTheServerConfiguration() async throws {
        let settings = try await resolve(
            ["ANTHROPIC_API_KEY": "sk-ant"],
            config: #"{"profiles": {"claude": {"provider": "anthropic", "cache": true, "thinking_budget": 4096}}}"#,
            profile: "claude")
        #expect(settings.server.thinkingBudget == 4096)
        #expect(settings.server.promptCaching == true)
        let plain = try await resolve(["ANTHROPIC_API_KEY": "sk-ant"])
        #expect(plain.server.thinkingBudget == nil)
        #expect(plain.server.promptCaching == false)
    }

    @Test func thinkingIsRefusedForAnotherProvider() async {
        let refused = await error(["OPENAI_API_KEY": "sk-openai"], config: #"{"thinking_budget": 2048}"#)
        #expect(
            refused.map(line)?.hasPrefix(
                "thinking_budget (from thinking_budget in ") == true
                && refused.map(line)?.contains(
                    "is for the anthropic provider; this run's is openai") == true,
            "\(String(describing: refused.map(line)))")
    }

    @Test func aRoleSetsCacheAndThinkingAndIsRefusedThemForAnotherProvider() async throws {
        let file = """
            {"profiles": {"claude": {"provider": "anthropic"}},
             "roles": {"deep": {"prompt": "Think.", "profile": "claude", "cache": true, "thinking_budget": 4096},
                       "plain": {"prompt": "Hi."}, "lost": {"prompt": "Hm.", "thinking_budget": 2048}}}
            """
        let deep = try await resolve(["ANTHROPIC_API_KEY": "sk-ant"], config: file, role: "deep")
        #expect(deep.server.thinkingBudget == 4096)
        #expect(deep.server.promptCaching == true)
        let plain = try await resolve(["ANTHROPIC_API_KEY": "sk-ant"], config: file, profile: "claude", role: "plain")
        #expect(plain.server.thinkingBudget == nil)
        #expect(plain.server.promptCaching == false)
        do {
            _ = try await resolve(["OPENAI_API_KEY": "sk-openai"], config: file, role: "lost")
            Issue.record("a role's thinking_budget was taken for the openai provider")
        } catch {
            let words = (error as? SettingsError).map(line) ?? "\(error)"
            #expect(words.contains("is for the anthropic provider"), "\(words)")
        }
    }
}
