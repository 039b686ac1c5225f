import ChatDomain
import Testing

@testable import ChatConfig

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the completion scripts and the no-key message ask of `SettingsResolver`.
@Suite struct ProfileNamesTests {
    /// A directory holding `chat/config.json` with `text` (the caller removes it).
    private func configHome(_ text: String) throws -> String {
        let directory = "/tmp/chat-profile-names-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory + "/chat", withIntermediateDirectories: true)
        try text.write(toFile: directory + "/chat/config.json", atomically: true, encoding: .utf8)
        return directory
    }

    @Test func theBuiltInAndTheConfigsProfilesSorted() throws {
        let home = try configHome(#"{"profiles": {"work": {"model": "m"}, "groq": {}, "local": {"model": "x"}}}"#)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let resolver = SettingsResolver(environment: ["XDG_CONFIG_HOME": home])
        #expect(try resolver.profileNames(configPath: nil) == ["anthropic", "groq", "local", "work"])
        #expect(
            try resolver.profileNames(configPath: home + "/chat/config.json") == ["anthropic", "groq", "local", "work"])
        #expect(
            try SettingsResolver(environment: ["HOME": "/nonexistent"]).profileNames(configPath: nil) == [
                "anthropic", "local",
            ])
    }

    @Test func aConfigThatCannotBeReadIsTheSameErrorAsForAChat() throws {
        let home = try configHome("{")
        defer { try? FileManager.default.removeItem(atPath: home) }
        #expect(throws: SettingsError.self) {
            try SettingsResolver(environment: ["XDG_CONFIG_HOME": home]).profileNames(configPath: nil)
        }
        #expect(throws: SettingsError.self) {
            try SettingsResolver(environment: [:]).profileNames(configPath: "/nonexistent/config.json")
        }
    }

    @Test func theNoKeyMessageNamesTheLocalModelCommandItIsGiven() async {
        func message(_ resolver: SettingsResolver) async -> String {
            do throws(SettingsError) {
                _ = try await resolver.resolve(SettingOverrides())
                return ""
            } catch {
                return line(error)
            }
        }
        let environment = ["HOME": "/nonexistent"]
        #expect(
            await message(SettingsResolver(environment: environment)).hasSuffix(
                "or use a local server: scripts/local-model start, then chat --profile local"))
        #expect(
            await message(SettingsResolver(environment: environment, localModelCommand: "chat-local-model start"))
                .hasSuffix("or use a local server: chat-local-model start, then chat --profile local"))
    }
}
