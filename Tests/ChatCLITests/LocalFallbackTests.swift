import Foundation
import Testing

@testable import chat

/// `scripts/chat`'s question, `chat --local-fallback ARGUMENTS…`: the small local model is used
/// only when the run sends a request and nothing names a server or a key. The arguments are read
/// by chat's own parser, so the script keeps no list of options.
@Suite struct LocalFallbackTests {
    private static let unset: [String: String] = ["HOME": "/nonexistent-home"]

    @Test(arguments: [
        [], ["hi"], ["-m", "gpt", "what", "is", "-5", "squared"], ["-i"], ["-x", "find big files"], ["--models"],
        ["--temperature", "0.5", "--", "--profile", "x"], ["-s", "--base-url", "hi"], ["what", "--base-url", "x"],
        ["-f", "a.txt", "summarise"], ["-c", "more"], ["-r", "code", "fizzbuzz"],
    ])
    func aRequestWithNothingNamingAServerFallsBack(_ arguments: [String]) {
        #expect(LocalFallback(environment: Self.unset).applies(to: arguments))
    }

    @Test(arguments: [
        ["--base-url", "http://127.0.0.1:9/v1", "hi"], ["--base-url=http://h/v1"], ["--profile", "work", "hi"],
        ["--config", "/tmp/c.json", "hi"], ["--version"], ["-h"], ["--list"], ["--search", "x"], ["--show", "a"],
        ["--export", "a"], ["--delete", "a"], ["--completions", "bash"], ["--list-roles"],
        // Not a command line chat runs: chat itself says what is wrong.
        ["--modle", "x"], ["-m"], ["--temperature", "9", "hi"], ["--api-key", "sk-x", "hi"],
    ])
    func anythingElseDoesNot(_ arguments: [String]) {
        #expect(!LocalFallback(environment: Self.unset).applies(to: arguments))
    }

    @Test func aKeyABaseURLOrAConfigFileNamesAServer() throws {
        #expect(!LocalFallback(environment: ["OPENAI_API_KEY": "sk-x"]).applies(to: ["hi"]))
        #expect(!LocalFallback(environment: ["OPENAI_BASE_URL": "http://h/v1"]).applies(to: ["hi"]))
        // With ANTHROPIC_API_KEY alone, chat goes to Anthropic by itself (SettingsResolver).
        #expect(
            !LocalFallback(environment: ["ANTHROPIC_API_KEY": "sk-ant", "HOME": "/nonexistent-home"]).applies(to: ["hi"]
            ))
        #expect(LocalFallback(environment: ["OPENAI_API_KEY": "", "HOME": "/nonexistent-home"]).applies(to: ["hi"]))
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let environment = ["HOME": chat.home, "XDG_CONFIG_HOME": chat.home + "/config"]
        #expect(LocalFallback(environment: environment).applies(to: ["hi"]))
        try FileManager.default.createDirectory(atPath: chat.home + "/config/chat", withIntermediateDirectories: true)
        _ = try chat.writeConfig("{}", name: "config/chat/config.json")
        #expect(!LocalFallback(environment: environment).applies(to: ["hi"]))
        // Without XDG_CONFIG_HOME, the config is ~/.config/chat/config.json.
        #expect(LocalFallback(environment: ["HOME": chat.home]).applies(to: ["hi"]))
    }

    @Test func theBinaryAnswersWithItsExitStatusAndSaysNothing() async throws {
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let yes = try await chat.run(["--local-fallback", "-m", "x", "hello", "--base-url", "y"])
        #expect(yes.status == 0 && yes.stdout == "" && yes.stderr == "")
        let no = try await chat.run(["--local-fallback", "--profile", "local", "hello"])
        #expect(no.status == 1 && no.stdout == "" && no.stderr == "")
        var keyed = chat
        keyed.environment["OPENAI_API_KEY"] = "sk-x"
        #expect(try await keyed.run(["--local-fallback", "hello"]).status == 1)
    }

    /// `scripts/chat` asks the binary instead of reading options itself: the only options it names
    /// are the ones it adds to the command line, and the three that name a server, which it reads
    /// only to start the local model's download beside the build (the binary still decides).
    /// (Long names: `-x` and `-c` are also words of the shell's own.)
    @Test func scriptsChatKeepsNoListOfOptions() throws {
        let script = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
                "../../scripts/chat"), encoding: .utf8)
        let code = script.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
        #expect(code.contains { $0.contains("--local-fallback \"$@\"") })
        let named = Set(
            code.flatMap { $0.split(whereSeparator: { " ()=\"'|".contains($0) }) }.filter { $0.hasPrefix("-") }
                .map(String.init))
        let options = Set(OptionCatalogue.entries.map(\.flag.longName))
        #expect(named.intersection(options) == ["--profile", "--base-url", "--config"])
    }
}
