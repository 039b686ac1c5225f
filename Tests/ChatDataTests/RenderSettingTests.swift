import ChatDomain
import Foundation
import Testing

@testable import ChatConfig

/// `render`: auto by default, set by the config or `--render`, and a word it does not know is
/// an error naming the key and the words it takes.
@Suite struct RenderSettingTests {
    private func config(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("render-\(UUID()).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func resolve(configPath: String? = nil, flag: String? = nil) async throws(SettingsError) -> ResolvedSettings
    {
        var overrides = SettingOverrides()
        overrides.configPath = configPath
        if let flag { try overrides.set("render", text: flag, flag: "--render") }
        return try await SettingsResolver(environment: ["OPENAI_API_KEY": "sk-x", "HOME": "/nonexistent"]).resolve(
            overrides)
    }

    @Test func autoByDefault() async throws {
        #expect(try await resolve().render == .auto)
    }

    @Test func theConfigSetsItAndTheFlagWins() async throws {
        let path = try config(#"{"render": "never"}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try await resolve(configPath: path).render == .never)
        #expect(try await resolve(configPath: path, flag: "always").render == .always)
    }

    @Test func anUnknownWordInTheConfigIsAnError() async throws {
        let path = try config(#"{"render": "sometimes"}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        await #expect(
            throws: SettingsError.configFile(
                path: path,
                .issue(ConfigIssue(key: "render", problem: .notOneOf(["auto", "always", "never"], got: "sometimes"))))
        ) {
            _ = try await resolve(configPath: path)
        }
    }

    /// The words are named one way, from the config and from the flag.
    @Test func aBadWordIsWordedAsTheFlagWordsIt() {
        let issue = ConfigIssue(key: "render", problem: .notOneOf(["auto", "always", "never"], got: "sometimes"))
        #expect(
            line(.configFile(path: "c.json", .issue(issue)))
                == #"config c.json: render: expected auto, always or never, got "sometimes""#)
        #expect(
            line(.badValue(name: "--render", text: "sometimes", expected: .oneOf(["auto", "always", "never"])))
                == #"--render expects auto, always or never, got "sometimes""#)
    }
}
