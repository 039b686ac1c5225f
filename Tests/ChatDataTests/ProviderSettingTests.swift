import ChatDomain
import Foundation
import Testing

@testable import ChatConfig

/// `provider`: which provider's API the server speaks, `openai` by default (or `anthropic`:
/// AnthropicSettingsTests), set at the top level or in a profile; another word is one error
/// naming the key and the providers there are.
@Suite struct ProviderSettingTests {
    private func config(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("provider-\(UUID()).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func resolve(configPath: String? = nil, profile: String? = nil) async throws(SettingsError)
        -> ResolvedSettings
    {
        var overrides = SettingOverrides()
        overrides.configPath = configPath
        overrides.profile = profile
        return try await SettingsResolver(environment: ["OPENAI_API_KEY": "sk-x", "HOME": "/nonexistent"]).resolve(
            overrides)
    }

    @Test func openAIByDefault() async throws {
        #expect(try await resolve().server.provider == .openAI)
    }

    @Test func theTopLevelOrAProfileNamesIt() async throws {
        let path = try config(#"{"provider": "openai", "profiles": {"p": {"provider": "openai"}}}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try await resolve(configPath: path).server.provider == .openAI)
        #expect(try await resolve(configPath: path, profile: "p").server.provider == .openAI)
    }

    @Test func anUnknownProviderIsOneErrorNamingTheKeyAndTheProviders() async throws {
        for (json, key) in [
            (#"{"provider": "gemini"}"#, "provider"),
            (#"{"profiles": {"p": {"provider": "gemini"}}}"#, "profiles.p.provider"),
        ] {
            let path = try config(json)
            defer { try? FileManager.default.removeItem(atPath: path) }
            do throws(SettingsError) {
                _ = try await resolve(configPath: path)
                Issue.record("\(json) was accepted")
            } catch {
                #expect(
                    line(error)
                        == #"config \#(path): \#(key): expected openai, anthropic or openai-responses, got "gemini""#)
            }
        }
    }
}
