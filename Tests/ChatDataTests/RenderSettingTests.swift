import Foundation
import Testing

@testable import ChatData

/// `render`: auto by default, set by the config or `--render`, and a word it does not know is
/// an error naming the key and the words it takes.
@Suite struct RenderSettingTests {
    private func config(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("render-\(UUID()).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func resolve(configPath: String? = nil, flag: String? = nil) throws(DataError) -> ResolvedSettings {
        var overrides = SettingOverrides()
        overrides.configPath = configPath
        if let flag { try overrides.set("render", text: flag, flag: "--render") }
        return try SettingsResolver(environment: ["OPENAI_API_KEY": "sk-x", "HOME": "/nonexistent"]).resolve(overrides)
    }

    @Test func autoByDefault() throws {
        #expect(try resolve().render == "auto")
    }

    @Test func theConfigSetsItAndTheFlagWins() throws {
        let path = try config(#"{"render": "never"}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try resolve(configPath: path).render == "never")
        #expect(try resolve(configPath: path, flag: "always").render == "always")
    }

    @Test func anUnknownWordInTheConfigIsAnError() throws {
        let path = try config(#"{"render": "sometimes"}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(
            throws: DataError.config(
                file: path, message: #"render: expected "auto", "always", "never", got "sometimes""#)
        ) {
            _ = try resolve(configPath: path)
        }
    }
}
