import ChatDomain
import Testing

@testable import ChatConfig
@testable import ChatHTTP
@testable import ChatHistory
@testable import ChatJSON
@testable import ChatPresentation
@testable import ChatProviders
@testable import ChatTestSupport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - Helpers

/// A directory of its own under /tmp for one test.
private struct TempDir {
    let path: String

    /// Writes `text` to `name` in the directory with permission bits `mode`; returns its path.
    @discardableResult
    func write(_ name: String, _ text: String, mode: mode_t = 0o600) -> String {
        let file = path + "/" + name
        let parent = String(file[..<(file.lastIndex(of: "/") ?? file.endIndex)])
        try? FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: file, contents: Data(text.utf8)), "could not write \(file)")
        #expect(chmod(file, mode) == 0, "could not chmod \(file)")
        return file
    }

    /// Writes `config.json` with `text`; returns its path.
    @discardableResult
    func config(_ text: String, mode: mode_t = 0o600) -> String {
        write("config.json", text, mode: mode)
    }
}

/// Runs `body` with a fresh temporary directory, removed afterwards.
private func withTempDir(_ body: (TempDir) async throws -> Void) async throws {
    let path = "/tmp/chat-config-tests-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    try await body(TempDir(path: path))
}

extension SettingOverrides {
    /// Sets `key` as its flag would (`--base-url` for `base_url`); nil leaves it unset.
    fileprivate mutating func flag(_ key: String, _ text: String?) {
        guard let text else { return }
        do throws(SettingsError) {
            try set(key, text: text, flag: "--" + key.replacingOccurrences(of: "_", with: "-"))
        } catch {
            Issue.record("\(key) = \(text): \(error)")
        }
    }

    /// Sets the true-or-false `key` as its flag would.
    fileprivate mutating func flag(_ key: String, _ value: Bool) {
        do throws(SettingsError) {
            try set(key, value, flag: "--" + key.replacingOccurrences(of: "_", with: "-"))
        } catch {
            Issue.record("\(key) = \(value): \(error)")
        }
    }
}

/// Overrides built in one expression.
private func flags(_ configure: (inout SettingOverrides) -> Void = { _ in }) -> SettingOverrides {
    var overrides = SettingOverrides()
    configure(&overrides)
    return overrides
}

private func resolve(_ environment: [String: String], _ overrides: SettingOverrides = SettingOverrides())
    async throws(SettingsError) -> ResolvedSettings
{
    try await SettingsResolver(environment: environment).resolve(overrides)
}

/// Resolves with the config file at `path`.
private func resolve(
    config path: String, _ environment: [String: String] = [:], _ configure: (inout SettingOverrides) -> Void = { _ in }
) async throws(SettingsError) -> ResolvedSettings {
    try await resolve(
        environment,
        flags {
            $0.configPath = path; configure(&$0)
        })
}

/// The error resolving throws, or nil (recording an issue) when it succeeds.
private func resolveError(
    _ environment: [String: String], _ overrides: SettingOverrides = SettingOverrides(),
    sourceLocation: SourceLocation = #_sourceLocation
) async -> SettingsError? {
    do throws(SettingsError) {
        let settings = try await resolve(environment, overrides)
        Issue.record("expected an error, got base URL \(settings.server.baseURL)", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// The line of a `.configFile` error for `file`, after `config FILE: `, recording an issue for any other outcome.
private func configMessage(
    _ error: SettingsError?, file: String, sourceLocation: SourceLocation = #_sourceLocation
) -> String {
    guard let error, case .configFile(let errorFile, _) = error else {
        Issue.record(
            "expected SettingsError.configFile, got \(String(describing: error))", sourceLocation: sourceLocation)
        return ""
    }
    #expect(errorFile == file, sourceLocation: sourceLocation)
    return String(line(error).dropFirst("config \(file): ".count))
}

private let key = ["OPENAI_API_KEY": "sk-env"]

// MARK: - ConfigFile

@Suite("Config file parsing")
struct ConfigFileTests {
    @Test("every key of a level, the profiles and default_profile are read")
    func everyKeyIsRead() async throws {
        let json = """
            {
              "base_url": "https://top.example/v1", "model": "m", "system_prompt": "Be brief.",
              "temperature": 1, "max_tokens": 1, "connect_timeout": 2.5, "idle_timeout": 30,
              "stream": false, "api_key_env": "TOP_KEY", "headers": {"X-A": "1"}, "proxy": "http://proxy:3128",
              "default_profile": "p",
              "profiles": {"p": {"model": "pm", "stream": true, "api_key_command": "pass show key"}, "empty": {}}
            }
            """
        let file = try ConfigFile(bytes: Array(json.utf8))
        let top = ConfigLevel(values: [
            "base_url": .text("https://top.example/v1"), "model": .text("m"), "system_prompt": .text("Be brief."),
            "temperature": .number(1), "max_tokens": .wholeNumber(1), "connect_timeout": .number(2.5),
            "idle_timeout": .number(30), "stream": .boolean(false), "api_key_env": .text("TOP_KEY"),
            "headers": .stringMap(["X-A": "1"]), "proxy": .text("http://proxy:3128"),
        ])
        let profile = ConfigLevel(values: [
            "model": .text("pm"), "stream": .boolean(true), "api_key_command": .text("pass show key"),
        ])
        #expect(file == ConfigFile(top: top, profiles: ["p": profile, "empty": ConfigLevel()], defaultProfile: "p"))
    }

    @Test("an empty object is an empty config")
    func emptyObjectIsEmptyConfig() async throws {
        #expect(try ConfigFile(bytes: Array("{}".utf8)) == ConfigFile())
    }

    struct IssueCase: Sendable, CustomTestStringConvertible {
        let json: String
        let key: String
        let problem: String
        var testDescription: String { json }
    }

    @Test(
        "a bad config names the key and what is wrong",
        arguments: [
            IssueCase(json: #"{"temperature": "hot"}"#, key: "temperature", problem: "expected a number, got a string"),
            IssueCase(
                json: #"{"temperature": 3}"#, key: "temperature", problem: "expected a number from 0.0 to 2.0, got 3.0"),
            IssueCase(
                json: #"{"top_p": 1.5}"#, key: "top_p", problem: "expected a number from 0.0 to 1.0, got 1.5"),
            IssueCase(json: #"{"stream": "yes"}"#, key: "stream", problem: "expected true or false, got a string"),
            IssueCase(json: #"{"model": 4}"#, key: "model", problem: "expected a string, got a number"),
            IssueCase(
                json: #"{"max_tokens": 1.5}"#, key: "max_tokens",
                problem: "expected a whole number of at least 1, got 1.5"),
            IssueCase(
                json: #"{"max_tokens": 0}"#, key: "max_tokens",
                problem: "expected a whole number of at least 1, got 0.0"),
            IssueCase(
                json: #"{"headers": {"X-A": 1}}"#, key: "headers.X-A", problem: "expected a string, got a number"),
            IssueCase(
                json: #"{"headers": ["X-A"]}"#, key: "headers", problem: "expected an object of strings, got an array"),
            IssueCase(
                json: #"{"default_profile": true}"#, key: "default_profile", problem: "expected a string, got a boolean"
            ),
            IssueCase(
                json: #"{"profiles": []}"#, key: "profiles", problem: "expected an object of profiles, got an array"),
            IssueCase(
                json: #"{"profiles": {"w": "x"}}"#, key: "profiles.w", problem: "expected an object, got a string"),
            IssueCase(
                json: #"{"profiles": {"work": {"temperature": "hot"}}}"#, key: "profiles.work.temperature",
                problem: "expected a number, got a string"),
            IssueCase(json: "[1]", key: "(file)", problem: "expected a JSON object at the top, got an array"),
            // Strict JSON (a trailing comma was accepted silently before issue 17), located.
            IssueCase(
                json: "{\"model\": \"m\",}", key: "(file)",
                problem: "not valid JSON: line 1, column 15: a comma before }"),
            IssueCase(
                json: "{\n\"model\": \"m\"\n\"stream\": true}", key: "(file)",
                problem: "not valid JSON: line 3, column 1: a comma or } expected after the value of \"model\""),
        ])
    func badConfigNamesKey(_ testCase: IssueCase) async {
        expectIssue(testCase.json, key: testCase.key, problem: testCase.problem)
    }

    @Test(
        "an unknown key is named, with the known keys",
        arguments: [
            (#"{"modle": "x"}"#, "modle"),
            (#"{"profiles": {"work": {"modle": "x"}}}"#, "profiles.work.modle"),
        ])
    func unknownKeyIsNamed(_ json: String, _ key: String) async {
        do throws(ConfigIssue) {
            _ = try ConfigFile(bytes: Array(json.utf8))
            Issue.record("expected an issue")
        } catch {
            #expect(error.key == key)
            #expect(problem(error).hasPrefix("unknown key"))
            #expect(problem(error).contains("model"))
        }
    }

    @Test("an unknown key close to a known one suggests it; a repeated key takes its last value")
    func unknownKeySuggestsAndRepeatedKeyTakesTheLast() async throws {
        expectIssue(#"{"modle": "x"}"#, key: "modle", problem: "unknown key; did you mean model?")
        let file = try ConfigFile(bytes: Array(#"{"model": "first", "model": "last"}"#.utf8))
        #expect(file.top["model"] == .text("last"))
    }

    @Test("profiles and default_profile are not keys of a profile")
    func profileKeysOnlyAtTop() async {
        do throws(ConfigIssue) {
            _ = try ConfigFile(bytes: Array(#"{"profiles": {"a": {"profiles": {}}}}"#.utf8))
            Issue.record("expected an issue")
        } catch {
            #expect(error.key == "profiles.a.profiles")
        }
    }

    @Test(
        "two key sources in one level are refused",
        arguments: [
            (#"{"api_key": "sk", "api_key_env": "K"}"#, "api_key_env"),
            (#"{"api_key_file": "/k", "api_key_command": "echo k"}"#, "api_key_command"),
            (#"{"profiles": {"p": {"api_key": "sk", "api_key_file": "/k"}}}"#, "profiles.p.api_key_file"),
        ])
    func twoKeySourcesAreRefused(_ json: String, _ key: String) async {
        do throws(ConfigIssue) {
            _ = try ConfigFile(bytes: Array(json.utf8))
            Issue.record("expected an issue")
        } catch {
            #expect(error.key == key)
            #expect(problem(error).hasPrefix("give one of api_key, api_key_env, api_key_file, api_key_command"))
        }
    }

    @Test("invalid JSON is an issue with the file", arguments: ["", "{", #"{"model": x}"#, "model = x"])
    func invalidJSONIsIssue(_ text: String) async {
        do throws(ConfigIssue) {
            _ = try ConfigFile(bytes: Array(text.utf8))
            Issue.record("expected an issue")
        } catch {
            #expect(error.key == "(file)")
            #expect(problem(error).hasPrefix("not valid JSON"))
        }
    }
}

// MARK: - Defaults and locations

@Suite("Settings defaults and config location")
struct SettingsDefaultsTests {
    @Test("with only OPENAI_API_KEY set, every setting is the default")
    func defaultsWithKeyOnly() async throws {
        let settings = try await resolve(key)
        #expect(settings.server.baseURL == "https://api.openai.com/v1")
        #expect(settings.server.apiKey == "sk-env")
        #expect(settings.server.connectTimeout == 10)
        #expect(settings.server.idleTimeout == 60)
        #expect(settings.server.headers.isEmpty)
        #expect(settings.server.proxy == nil)
        #expect(settings.chat.model == "gpt-4o-mini")
        #expect(settings.chat.stream)
        #expect(settings.chat.sampling[.temperature] == nil)
        #expect(settings.chat.sampling[.maxTokens] == nil)
        #expect(settings.chat.sampling[.topP] == nil)
        #expect(settings.systemPrompt == nil)
        #expect(settings.profile == nil)
        #expect(settings.warnings.isEmpty)
    }

    @Test("OPENAI_API_KEY is trimmed, and a blank one is no key")
    func environmentKeyIsTrimmed() async throws {
        #expect(try await resolve(["OPENAI_API_KEY": "  sk-env\n"]).server.apiKey == "sk-env")
        guard case .missingAPIKey? = await resolveError(["OPENAI_API_KEY": " \n"]) else {
            Issue.record("expected missingAPIKey for a blank OPENAI_API_KEY")
            return
        }
    }

    @Test(
        "a trailing slash on the base URL is dropped",
        arguments: [
            ("https://example.com/v1/", "https://example.com/v1"),
            ("https://example.com/v1//", "https://example.com/v1"),
            ("https://example.com/v1", "https://example.com/v1"),
        ])
    func trailingSlashIsDropped(_ given: String, _ expected: String) async throws {
        #expect(try await resolve(key, flags { $0.flag("base_url", given) }).server.baseURL == expected)
        #expect(try await resolve(key.merging(["OPENAI_BASE_URL": given]) { $1 }).server.baseURL == expected)
    }

    @Test("the default config path is under XDG_CONFIG_HOME, else HOME/.config")
    func defaultConfigPath() async {
        #expect(
            SettingsResolver(environment: ["XDG_CONFIG_HOME": "/x/cfg", "HOME": "/h"]).defaultConfigPath
                == "/x/cfg/chat/config.json")
        #expect(SettingsResolver(environment: ["HOME": "/h"]).defaultConfigPath == "/h/.config/chat/config.json")
        #expect(
            SettingsResolver(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]).defaultConfigPath
                == "/h/.config/chat/config.json")
        #expect(SettingsResolver(environment: [:]).defaultConfigPath == nil)
    }

    @Test("the default config file is read from XDG_CONFIG_HOME")
    func readsConfigFromXDG() async throws {
        try await withTempDir { dir async throws in
            dir.write("chat/config.json", #"{"model": "from-xdg"}"#)
            let settings = try await resolve(key.merging(["XDG_CONFIG_HOME": dir.path, "HOME": "/nonexistent"]) { $1 })
            #expect(settings.chat.model == "from-xdg")
        }
    }

    @Test("the default config file is read from HOME/.config")
    func readsConfigFromHome() async throws {
        try await withTempDir { dir async throws in
            dir.write(".config/chat/config.json", #"{"model": "from-home"}"#)
            #expect(try await resolve(key.merging(["HOME": dir.path]) { $1 }).chat.model == "from-home")
        }
    }

    @Test("a missing default config file is fine")
    func missingDefaultConfigIsFine() async throws {
        try await withTempDir { dir async throws in
            let settings = try await resolve(
                key.merging(["HOME": dir.path, "XDG_CONFIG_HOME": dir.path + "/xdg"]) { $1 })
            #expect(settings.chat.model == "gpt-4o-mini")
            #expect(settings.warnings.isEmpty)
        }
    }

    @Test("a --config file that does not exist is an error naming it")
    func missingExplicitConfigIsError() async throws {
        try await withTempDir { dir async throws in
            let path = dir.path + "/nope.json"
            let message = configMessage(await resolveError(key, flags { $0.configPath = path }), file: path)
            #expect(message.contains("no such file"))
        }
    }

    @Test("a --config path starting with ~/ is under HOME")
    func explicitConfigExpandsTilde() async throws {
        try await withTempDir { dir async throws in
            dir.write("my.json", #"{"model": "tilde"}"#)
            #expect(
                try await resolve(config: "~/my.json", key.merging(["HOME": dir.path]) { $1 }).chat.model == "tilde")
        }
    }

    @Test("a malformed default config file is an error too")
    func malformedDefaultConfigIsError() async throws {
        try await withTempDir { dir async throws in
            let path = dir.write("chat/config.json", "{")
            let message = configMessage(
                await resolveError(key.merging(["XDG_CONFIG_HOME": dir.path]) { $1 }), file: path)
            #expect(message.hasPrefix("(file): not valid JSON"))
        }
    }
}

// MARK: - Precedence

struct BaseURLCase: Sendable, CustomTestStringConvertible {
    let name: String
    let config: String
    let environment: [String: String]
    let flagBaseURL: String?
    let profile: String?
    let expected: String

    var testDescription: String { name }
}

private let profileConfig = """
    {"base_url": "https://top.example/v1",
     "profiles": {"p": {"base_url": "https://profile.example/v1", "api_key": "sk-p"}, "bare": {"model": "b"}}}
    """

private let baseURLCases: [BaseURLCase] = [
    BaseURLCase(
        name: "a flag beats the profile", config: profileConfig,
        environment: ["OPENAI_BASE_URL": "https://env.example/v1"], flagBaseURL: "https://flag.example/v1",
        profile: "p", expected: "https://flag.example/v1"),
    BaseURLCase(
        name: "the profile beats OPENAI_BASE_URL", config: profileConfig,
        environment: ["OPENAI_BASE_URL": "https://env.example/v1"], flagBaseURL: nil, profile: "p",
        expected: "https://profile.example/v1"),
    BaseURLCase(
        name: "OPENAI_BASE_URL beats the config's top level", config: profileConfig,
        environment: ["OPENAI_BASE_URL": "https://env.example/v1"], flagBaseURL: nil, profile: nil,
        expected: "https://env.example/v1"),
    BaseURLCase(
        name: "a profile without base_url falls through to OPENAI_BASE_URL", config: profileConfig,
        environment: ["OPENAI_BASE_URL": "https://env.example/v1"], flagBaseURL: nil, profile: "bare",
        expected: "https://env.example/v1"),
    BaseURLCase(
        name: "the config's top level beats the default", config: profileConfig, environment: [:], flagBaseURL: nil,
        profile: nil, expected: "https://top.example/v1"),
    BaseURLCase(
        name: "an empty OPENAI_BASE_URL is ignored", config: profileConfig, environment: ["OPENAI_BASE_URL": ""],
        flagBaseURL: nil, profile: nil, expected: "https://top.example/v1"),
    BaseURLCase(
        name: "the default when nothing sets it", config: "{}", environment: [:], flagBaseURL: nil, profile: nil,
        expected: "https://api.openai.com/v1"),
]

@Suite("Settings precedence")
struct SettingsPrecedenceTests {
    @Test("the base URL comes from the highest source that sets it", arguments: baseURLCases)
    func baseURLPrecedence(_ testCase: BaseURLCase) async throws {
        try await withTempDir { dir async throws in
            let path = dir.config(testCase.config)
            let settings = try await resolve(config: path, key.merging(testCase.environment) { $1 }) {
                $0.flag("base_url", testCase.flagBaseURL)
                $0.profile = testCase.profile
            }
            #expect(settings.server.baseURL == testCase.expected)
        }
    }

    private static let allLevels = """
        {"model": "top-model", "temperature": 0.1, "max_tokens": 10, "system_prompt": "top",
         "connect_timeout": 1, "idle_timeout": 2, "stream": false, "top_p": 0.1,
         "profiles": {"p": {"model": "profile-model", "temperature": 0.2, "max_tokens": 20, "system_prompt": "profile",
                            "connect_timeout": 3, "idle_timeout": 4, "stream": true, "top_p": 0.2}}}
        """

    @Test("flags beat the profile for every setting")
    func flagsBeatProfile() async throws {
        try await withTempDir { dir async throws in
            let settings = try await resolve(config: dir.config(Self.allLevels), key) {
                $0.profile = "p"
                $0.flag("model", "flag-model")
                $0.flag("temperature", "0.3")
                $0.flag("max_tokens", "30")
                $0.flag("system_prompt", "flag")
                $0.flag("connect_timeout", "5")
                $0.flag("idle_timeout", "6")
                $0.flag("stream", false)
                $0.flag("top_p", "0.3")
            }
            #expect(settings.chat.model == "flag-model")
            #expect(settings.chat.sampling[.temperature] == .number(0.3))
            #expect(settings.chat.sampling[.maxTokens] == .wholeNumber(30))
            #expect(settings.chat.sampling[.topP] == .number(0.3))
            #expect(settings.systemPrompt == "flag")
            #expect(settings.server.connectTimeout == 5)
            #expect(settings.server.idleTimeout == 6)
            #expect(settings.chat.stream == false)
        }
    }

    @Test("the profile beats the top level for every setting")
    func profileBeatsTop() async throws {
        try await withTempDir { dir async throws in
            let settings = try await resolve(config: dir.config(Self.allLevels), key) { $0.profile = "p" }
            #expect(settings.profile == "p")
            #expect(settings.chat.model == "profile-model")
            #expect(settings.chat.sampling[.temperature] == .number(0.2))
            #expect(settings.chat.sampling[.maxTokens] == .wholeNumber(20))
            #expect(settings.chat.sampling[.topP] == .number(0.2))
            #expect(settings.systemPrompt == "profile")
            #expect(settings.server.connectTimeout == 3)
            #expect(settings.server.idleTimeout == 4)
            #expect(settings.chat.stream == true)
        }
    }

    @Test("the top level beats the defaults for every setting")
    func topBeatsDefaults() async throws {
        try await withTempDir { dir async throws in
            let settings = try await resolve(config: dir.config(Self.allLevels), key)
            #expect(settings.profile == nil)
            #expect(settings.chat.model == "top-model")
            #expect(settings.chat.sampling[.temperature] == .number(0.1))
            #expect(settings.chat.sampling[.maxTokens] == .wholeNumber(10))
            #expect(settings.chat.sampling[.topP] == .number(0.1))
            #expect(settings.systemPrompt == "top")
            #expect(settings.server.connectTimeout == 1)
            #expect(settings.server.idleTimeout == 2)
            #expect(settings.chat.stream == false)
        }
    }

    @Test("a profile only overrides the keys it sets")
    func profileOverridesOnlyItsKeys() async throws {
        try await withTempDir { dir async throws in
            let path = dir.config(
                #"{"model": "top", "temperature": 0.5, "proxy": "http://top:1", "profiles": {"p": {"model": "p"}}}"#)
            let settings = try await resolve(config: path, key) { $0.profile = "p" }
            #expect(settings.chat.model == "p")
            #expect(settings.chat.sampling[.temperature] == .number(0.5))
            #expect(settings.server.proxy == "http://top:1")
        }
    }

    @Test("the profile's proxy beats the top level's")
    func profileProxyBeatsTop() async throws {
        try await withTempDir { dir async throws in
            let path = dir.config(#"{"proxy": "http://top:1", "profiles": {"p": {"proxy": "http://profile:2"}}}"#)
            #expect(try await resolve(config: path, key) { $0.profile = "p" }.server.proxy == "http://profile:2")
        }
    }

    @Test("a profile's key beats OPENAI_API_KEY")
    func profileKeyBeatsEnvironmentKey() async throws {
        try await withTempDir { dir async throws in
            let path = dir.config(#"{"api_key": "sk-top", "profiles": {"p": {"api_key": "sk-profile"}}}"#)
            #expect(try await resolve(config: path, key) { $0.profile = "p" }.server.apiKey == "sk-profile")
        }
    }

    @Test("OPENAI_API_KEY beats the top level's key")
    func environmentKeyBeatsTopKey() async throws {
        try await withTempDir { dir async throws in
            let path = dir.config(#"{"api_key": "sk-top"}"#)
            #expect(try await resolve(config: path, key).server.apiKey == "sk-env")
        }
    }

    @Test("the top level's key is used when OPENAI_API_KEY is not set or blank")
    func topKeyWithoutEnvironmentKey() async throws {
        try await withTempDir { dir async throws in
            let path = dir.config(#"{"api_key": " sk-top "}"#)
            #expect(try await resolve(config: path, [:]).server.apiKey == "sk-top")
            #expect(try await resolve(config: path, ["OPENAI_API_KEY": "  "]).server.apiKey == "sk-top")
        }
    }

    @Test("a profile without base_url or key source uses OPENAI_API_KEY")
    func bareProfileInheritsEnvironmentKey() async throws {
        try await withTempDir { dir async throws in
            let path = dir.config(#"{"profiles": {"p": {"model": "x"}}}"#)
            #expect(try await resolve(config: path, key) { $0.profile = "p" }.server.apiKey == "sk-env")
        }
    }
}

// MARK: - Profiles

@Suite("Profiles")
struct ProfileTests {
    private static let config = """
        {"default_profile": "work",
         "profiles": {"work": {"model": "work-model"}, "home": {"model": "home-model"}}}
        """

    @Test("default_profile picks the profile")
    func defaultProfileIsUsed() async throws {
        try await withTempDir { dir async throws in
            let settings = try await resolve(config: dir.config(Self.config), key)
            #expect(settings.profile == "work")
            #expect(settings.chat.model == "work-model")
        }
    }

    @Test("--profile beats default_profile")
    func profileFlagBeatsDefaultProfile() async throws {
        try await withTempDir { dir async throws in
            let settings = try await resolve(config: dir.config(Self.config), key) { $0.profile = "home" }
            #expect(settings.profile == "home")
            #expect(settings.chat.model == "home-model")
        }
    }

    @Test("an unknown --profile is an error listing the known profiles")
    func unknownProfileFlagIsError() async throws {
        try await withTempDir { dir async throws in
            let path = dir.config(Self.config)
            let error = await resolveError(
                key,
                flags {
                    $0.configPath = path; $0.profile = "nope"
                })
            #expect(
                line(error) == (#"no profile named "nope" (--profile); known profiles: anthropic, home, local, work"#))
        }
    }

    @Test("an unknown default_profile is an error naming the config file")
    func unknownDefaultProfileIsError() async throws {
        try await withTempDir { dir async throws in
            let path = dir.config(#"{"default_profile": "gone"}"#)
            let error = await resolveError(key, flags { $0.configPath = path })
            #expect(
                line(error)
                    == (#"no profile named "gone" (default_profile in \#(path)); known profiles: anthropic, local"#))
        }
    }

    @Test("the built-in local profile works with no config file and no key")
    func builtInLocalProfile() async throws {
        let settings = try await resolve([:], flags { $0.profile = "local" })
        #expect(settings.profile == "local")
        #expect(settings.server.baseURL == "http://127.0.0.1:8080/v1")
        #expect(settings.chat.model == "local")
        #expect(settings.server.apiKey == nil)
    }

    @Test("the built-in local profile never gets OPENAI_API_KEY")
    func builtInLocalProfileGetsNoEnvironmentKey() async throws {
        let settings = try await resolve(key, flags { $0.profile = "local" })
        #expect(settings.server.apiKey == nil)
    }

    @Test("a config profile named local adds to the built-in one")
    func configLocalAddsToBuiltIn() async throws {
        try await withTempDir { dir async throws in
            let path = dir.config(#"{"profiles": {"local": {"model": "qwen3"}}}"#)
            let settings = try await resolve(config: path, key) { $0.profile = "local" }
            #expect(settings.server.baseURL == "http://127.0.0.1:8080/v1")
            #expect(settings.chat.model == "qwen3")
            #expect(settings.server.apiKey == nil)
        }
    }

    @Test("headers merge, the profile's winning over the top level's whatever the case")
    func headersMerge() async throws {
        try await withTempDir { dir async throws in
            let path = dir.config(
                """
                {"headers": {"X-Org": "top-org", "x-team": "top-team", "User-Agent": "chat"},
                 "profiles": {"p": {"headers": {"X-Team": "profile-team", "api-key": "azure"}}}}
                """)
            let withProfile = try await resolve(config: path, key) { $0.profile = "p" }.server.headers
            #expect(
                Set(withProfile.map { "\($0.name): \($0.value)" })
                    == ["X-Org: top-org", "X-Team: profile-team", "User-Agent: chat", "api-key: azure"])
            #expect(withProfile.count == 4)
            let withoutProfile = try await resolve(config: path, key).server.headers
            #expect(
                Set(withoutProfile.map { "\($0.name): \($0.value)" })
                    == ["X-Org: top-org", "x-team: top-team", "User-Agent: chat"])
        }
    }
}

// MARK: - API keys

@Suite("API keys")
struct APIKeyTests {
    @Test("no key for a remote server is missingAPIKey")
    func missingKeyForRemoteServer() async {
        let error = await resolveError([:])
        guard case .missingAPIKey? = error, let message = line(error) else {
            Issue.record("expected missingAPIKey")
            return
        }
        #expect(message.contains("https://api.openai.com/v1"))
        #expect(message.contains("OPENAI_API_KEY"))
    }

    @Test(
        "a loopback server needs no key",
        arguments: [
            "http://127.0.0.1:8080/v1", "http://localhost:11434/v1", "http://[::1]:8080/v1", "http://LOCALHOST/v1",
            "http://127.1.2.3/v1", "https://user:pw@localhost:8443/v1", "http://api.localhost/v1",
        ])
    func loopbackNeedsNoKey(_ url: String) async throws {
        let settings = try await resolve([:], flags { $0.flag("base_url", url) })
        #expect(settings.server.apiKey == nil)
    }

    @Test(
        "a server that only looks local needs a key",
        arguments: [
            "http://localhost.example.com/v1", "http://127.example.com/v1", "http://[::2]:8080/v1",
            "http://10.0.0.1:8080/v1", "http://example.com/localhost", "http://localhost@evil.example/v1",
        ])
    func nonLoopbackNeedsKey(_ url: String) async {
        guard case .missingAPIKey? = await resolveError([:], flags { $0.flag("base_url", url) }) else {
            Issue.record("expected missingAPIKey for \(url)")
            return
        }
    }

    @Test("api_key_env reads the named variable, trimmed")
    func apiKeyEnvReadsVariable() async throws {
        try await withTempDir { dir async throws in
            let path = dir.config(#"{"api_key_env": "MY_KEY"}"#)
            #expect(try await resolve(config: path, ["MY_KEY": " sk-var\n"]).server.apiKey == "sk-var")
        }
    }

    @Test(
        "api_key_env naming an unset or blank variable is an error naming it, saying which",
        arguments: [([:], "not set"), (["MY_KEY": " "], "empty"), (["MY_KEY": ""], "empty")])
    func apiKeyEnvUnsetIsError(_ environment: [String: String], _ state: String) async throws {
        try await withTempDir { dir async throws in
            let path = dir.config(#"{"api_key_env": "MY_KEY"}"#)
            let message = configMessage(await resolveError(environment, flags { $0.configPath = path }), file: path)
            #expect(message == "api_key_env names MY_KEY, which is \(state)")
        }
    }

    @Test("api_key_file reads the file, trimmed, with ~/ under HOME")
    func apiKeyFileIsRead() async throws {
        try await withTempDir { dir async throws in
            dir.write("key.txt", " sk-file \n")
            let absolute = dir.config(#"{"api_key_file": "\#(dir.path)/key.txt"}"#)
            #expect(try await resolve(config: absolute).server.apiKey == "sk-file")
            let tilde = dir.write("tilde.json", #"{"api_key_file": "~/key.txt"}"#)
            #expect(try await resolve(config: tilde, ["HOME": dir.path]).server.apiKey == "sk-file")
        }
    }

    @Test("a missing api_key_file is an error naming it")
    func missingAPIKeyFileIsError() async throws {
        try await withTempDir { dir async throws in
            let path = dir.config(#"{"api_key_file": "\#(dir.path)/absent.txt"}"#)
            let message = configMessage(await resolveError([:], flags { $0.configPath = path }), file: path)
            #expect(message.contains("api_key_file \(dir.path)/absent.txt does not exist"))
        }
    }

    @Test("an empty api_key_file is an error")
    func emptyAPIKeyFileIsError() async throws {
        try await withTempDir { dir async throws in
            dir.write("key.txt", "\n  \n")
            let path = dir.config(#"{"api_key_file": "\#(dir.path)/key.txt"}"#)
            let message = configMessage(await resolveError([:], flags { $0.configPath = path }), file: path)
            #expect(message.contains("is empty"))
        }
    }

    @Test("api_key_command's output is the key, trimmed")
    func apiKeyCommandOutputIsKey() async throws {
        try await withTempDir { dir async throws in
            let path = dir.config(#"{"api_key_command": "printf ' sk-cmd\\n'"}"#)
            #expect(try await resolve(config: path).server.apiKey == "sk-cmd")
        }
    }

    @Test(
        "a failing or silent api_key_command is an error",
        arguments: [
            ("echo sk-partial; exit 3", "api_key_command failed with exit status 3"),
            ("true", "api_key_command printed nothing"),
            ("printf '  \\n'", "api_key_command printed nothing"),
        ])
    func failingAPIKeyCommandIsError(_ command: String, _ expected: String) async throws {
        try await withTempDir { dir async throws in
            let path = dir.config(#"{"api_key_command": "\#(command)"}"#)
            let message = configMessage(await resolveError([:], flags { $0.configPath = path }), file: path)
            #expect(message == expected)
        }
    }

    @Test("a profile's failing key source names the profile")
    func profileKeyErrorNamesProfile() async throws {
        try await withTempDir { dir async throws in
            let path = dir.config(#"{"profiles": {"p": {"api_key_env": "P_KEY"}}}"#)
            let message = configMessage(
                await resolveError(
                    key,
                    flags {
                        $0.configPath = path; $0.profile = "p"
                    }), file: path)
            #expect(message == "profiles.p.api_key_env names P_KEY, which is not set")
        }
    }

    @Test("two key sources in one level are an error")
    func twoKeySourcesAreError() async throws {
        try await withTempDir { dir async throws in
            let path = dir.config(#"{"api_key": "sk-a", "api_key_env": "B"}"#)
            let message = configMessage(await resolveError([:], flags { $0.configPath = path }), file: path)
            #expect(message.hasPrefix("api_key_env: give one of"))
            #expect(message.contains("not api_key and api_key_env"))
        }
    }

    @Test("a profile with its own remote base_url and no key source gets no key, so the key is missing")
    func profileWithOwnServerGetsNoForeignKey() async throws {
        try await withTempDir { dir async throws in
            let path = dir.config(
                #"{"api_key": "sk-top", "profiles": {"other": {"base_url": "https://other.example/v1"}}}"#)
            let error = await resolveError(
                key,
                flags {
                    $0.configPath = path; $0.profile = "other"
                })
            guard case .missingAPIKey? = error, let message = line(error) else {
                Issue.record("expected missingAPIKey")
                return
            }
            #expect(message.contains("https://other.example/v1"))
        }
    }

    @Test("a profile with its own loopback base_url and no key source gets no key and needs none")
    func profileWithOwnLoopbackServerGetsNoKey() async throws {
        try await withTempDir { dir async throws in
            let path = dir.config(#"{"profiles": {"ollama": {"base_url": "http://localhost:11434/v1"}}}"#)
            let settings = try await resolve(config: path, key) { $0.profile = "ollama" }
            #expect(settings.server.baseURL == "http://localhost:11434/v1")
            #expect(settings.server.apiKey == nil)
        }
    }

    @Test("a profile with its own base_url and api_key_env gets that key")
    func profileWithOwnServerAndKeyEnv() async throws {
        try await withTempDir { dir async throws in
            let path = dir.config(
                #"{"profiles": {"or": {"base_url": "https://openrouter.ai/api/v1", "api_key_env": "OPENROUTER_API_KEY"}}}"#
            )
            let settings = try await resolve(config: path, key.merging(["OPENROUTER_API_KEY": "sk-or"]) { $1 }) {
                $0.profile = "or"
            }
            #expect(settings.server.baseURL == "https://openrouter.ai/api/v1")
            #expect(settings.server.apiKey == "sk-or")
        }
    }
}

// MARK: - Config errors and warnings

@Suite("Config errors and warnings")
struct ConfigErrorTests {
    @Test("invalid JSON is a config error naming the file")
    func invalidJSONNamesFile() async throws {
        try await withTempDir { dir async throws in
            let path = dir.config(#"{"model": "x",,}"#)
            let error = await resolveError(key, flags { $0.configPath = path })
            let message = configMessage(error, file: path)
            #expect(message.hasPrefix("(file): not valid JSON"))
            #expect(line(error)?.contains(path) == true)
        }
    }

    @Test(
        "a wrong value names its key and what was expected",
        arguments: [
            (#"{"temperature": "hot"}"#, "temperature: expected a number"),
            (#"{"modle": "gpt-4o"}"#, "modle: unknown key"),
            (#"{"profiles": {"work": {"modle": "x"}}}"#, "profiles.work.modle: unknown key"),
            (#"{"profiles": {"work": {"max_tokens": "ten"}}}"#, "profiles.work.max_tokens: expected a whole number"),
        ])
    func wrongValueNamesKey(_ json: String, _ prefix: String) async throws {
        try await withTempDir { dir async throws in
            let path = dir.config(json)
            let message = configMessage(await resolveError(key, flags { $0.configPath = path }), file: path)
            #expect(message.hasPrefix(prefix))
        }
    }

    @Test("a config holding api_key that others can read gets a chmod 600 warning")
    func readableKeyFileWarns() async throws {
        try await withTempDir { dir async throws in
            let path = dir.config(#"{"api_key": "sk-top"}"#, mode: 0o644)
            let warnings = try await resolve(config: path).warnings
            #expect(warnings.count == 1)
            #expect(warnings.first.map(line)?.contains("chmod 600 \(path)") == true)
        }
    }

    @Test("a profile's api_key in a readable config warns too")
    func readableProfileKeyWarns() async throws {
        try await withTempDir { dir async throws in
            let path = dir.config(#"{"profiles": {"p": {"api_key": "sk-p"}}}"#, mode: 0o640)
            #expect(try await resolve(config: path, key).warnings.count == 1)
        }
    }

    @Test(
        "no warning for a private config, or one without api_key",
        arguments: [
            (#"{"api_key": "sk-top"}"#, 0o600 as mode_t),
            (#"{"api_key": "sk-top"}"#, 0o400 as mode_t),
            (#"{"api_key_env": "K"}"#, 0o644 as mode_t),
            (#"{"model": "m"}"#, 0o666 as mode_t),
        ])
    func privateConfigDoesNotWarn(_ json: String, _ mode: mode_t) async throws {
        try await withTempDir { dir async throws in
            let path = dir.config(json, mode: mode)
            #expect(try await resolve(config: path, ["K": "sk-k", "OPENAI_API_KEY": "sk-env"]).warnings.isEmpty)
        }
    }

    @Test(
        "a base URL without http:// or https:// is an error naming where it came from",
        arguments: [
            ("api.openai.com/v1", nil, nil, "--base-url"),
            (nil, "localhost:8080/v1", nil, "OPENAI_BASE_URL"),
            (nil, nil, "ftp://files.example/v1", "base_url in "),
        ] as [(String?, String?, String?, String)])
    func baseURLWithoutSchemeIsError(_ flag: String?, _ environment: String?, _ config: String?, _ source: String)
        async throws
    {
        try await withTempDir { dir async throws in
            let path = dir.config(config.map { #"{"base_url": "\#($0)"}"# } ?? "{}")
            var env = key
            env["OPENAI_BASE_URL"] = environment
            let error = await resolveError(
                env,
                flags {
                    $0.configPath = path; $0.flag("base_url", flag)
                })
            guard case .baseURLScheme? = error, let message = line(error) else {
                Issue.record("expected SettingsError.baseURLScheme")
                return
            }
            #expect(message.contains("must start with http:// or https://"))
            #expect(message.contains("from \(source)"))
        }
    }
}

// MARK: - A key goes only where it was configured to go

@Suite("Key origin")
struct KeyOriginTests {
    /// A profile `smart` on its own server with its key from `source` (a JSON member), and a
    /// top-level key from `topSource` if given.
    private static func config(_ dir: TempDir, source: String, top: String = "") -> String {
        dir.config(
            """
            {\(top.isEmpty ? "" : top + ","),
             "profiles": {"smart": {"base_url": "https://smart.example/v1", \(source)}}}
            """.replacingOccurrences(of: "{,", with: "{"))
    }

    /// Each way a profile can name its key, with what the environment needs for it.
    private static func sources(_ dir: TempDir) -> [(member: String, environment: [String: String])] {
        let file = dir.write("smart.key", "sk-file-SMART\n")
        return [
            (#""api_key": "sk-literal-SMART""#, [:]),
            (#""api_key_env": "SMART_KEY""#, ["SMART_KEY": "sk-env-SMART"]),
            (#""api_key_file": "\#(file)""#, [:]),
            (#""api_key_command": "echo sk-command-SMART""#, [:]),
        ]
    }

    @Test("a profile's key goes to the profile's base_url, whatever its source")
    func profileKeyGoesHome() async throws {
        try await withTempDir { dir async throws in
            for (member, environment) in Self.sources(dir) {
                let path = Self.config(dir, source: member)
                let settings = try await resolve(config: path, environment) { $0.profile = "smart" }
                #expect(settings.server.apiKey?.hasSuffix("SMART") == true, "\(member)")
                #expect(settings.notes.isEmpty)
                // The same origin under another path is still home.
                let samePlace = try await resolve(config: path, environment) {
                    $0.profile = "smart"
                    $0.flag("base_url", "https://SMART.example:443/other/v1")
                }
                #expect(samePlace.server.apiKey?.hasSuffix("SMART") == true, "\(member)")
            }
        }
    }

    @Test("--base-url to another origin: the profile's key stays home, OPENAI_API_KEY goes instead")
    func profileKeyStaysHomeEnvironmentKeyGoes() async throws {
        try await withTempDir { dir async throws in
            for (member, environment) in Self.sources(dir) {
                let path = Self.config(dir, source: member)
                let settings = try await resolve(config: path, environment.merging(key) { $1 }) {
                    $0.profile = "smart"
                    $0.flag("base_url", "https://other.example/v1")
                }
                #expect(settings.server.apiKey == "sk-env", "\(member)")
                #expect(
                    settings.notes.map(line) == [
                        "the API key of profile smart stays with https://smart.example; --base-url goes to "
                            + "https://other.example, so the request carries OPENAI_API_KEY"
                    ])
            }
        }
    }

    @Test("--base-url to another origin without OPENAI_API_KEY: no key, and a remote server says so")
    func profileKeyStaysHomeNoKey() async throws {
        try await withTempDir { dir async throws in
            for (member, environment) in Self.sources(dir) {
                let path = Self.config(dir, source: member)
                let loopback = try await resolve(config: path, environment) {
                    $0.profile = "smart"
                    $0.flag("base_url", "http://127.0.0.1:9/v1")
                }
                #expect(loopback.server.apiKey == nil, "\(member)")
                #expect(loopback.notes.first.map(line)?.hasSuffix("so the request carries no key") == true)
                let remote = await resolveError(
                    environment,
                    flags {
                        $0.configPath = path
                        $0.profile = "smart"
                        $0.flag("base_url", "https://other.example/v1")
                    })
                guard case .missingAPIKey? = remote, let message = line(remote) else {
                    Issue.record("expected missingAPIKey, got \(String(describing: remote))")
                    continue
                }
                #expect(message.contains("the API key of profile smart is only sent to https://smart.example"))
            }
        }
    }

    @Test("a key that stays home is not even read: its command is not run, its variable may be unset")
    func keyThatStaysHomeIsNotRead() async throws {
        try await withTempDir { dir async throws in
            let marker = dir.path + "/ran"
            let path = dir.config(
                """
                {"default_profile": "fast", "profiles": {
                  "fast": {"base_url": "https://fast.example/v1", "api_key_env": "FAST_KEY"},
                  "cmd": {"base_url": "https://cmd.example/v1", "api_key_command": "touch \(marker); echo sk-x"}}}
                """)
            // The default profile's variable is unset: an explicit loopback --base-url still works.
            let settings = try await resolve(config: path, [:]) { $0.flag("base_url", "http://localhost:11434/v1") }
            #expect(settings.server.apiKey == nil)
            #expect(settings.server.baseURL == "http://localhost:11434/v1")
            // Without --base-url the variable is needed, as before.
            let error = await resolveError([:], flags { $0.configPath = path })
            #expect(configMessage(error, file: path) == "profiles.fast.api_key_env names FAST_KEY, which is not set")
            _ = try await resolve(config: path, [:]) {
                $0.profile = "cmd"
                $0.flag("base_url", "http://127.0.0.1:9/v1")
            }
            #expect(!FileManager.default.fileExists(atPath: marker))
        }
    }

    @Test("the top level's key belongs to the base URL the run uses without flags")
    func topLevelKeyStaysHome() async throws {
        try await withTempDir { dir async throws in
            let path = dir.config(#"{"base_url": "https://top.example/v1", "api_key": "sk-top-SECRET"}"#)
            #expect(try await resolve(config: path, [:]).server.apiKey == "sk-top-SECRET")
            let moved = try await resolve(config: path, [:]) { $0.flag("base_url", "http://127.0.0.1:9/v1") }
            #expect(moved.server.apiKey == nil)
            #expect(
                moved.notes.first.map(line)?.hasPrefix(
                    "the top-level API key of \(path) stays with https://top.example") == true)
            // OPENAI_BASE_URL is where the run goes without flags: the key goes there.
            let environment = ["OPENAI_BASE_URL": "https://env.example/v1"]
            #expect(try await resolve(config: path, environment).server.apiKey == "sk-top-SECRET")
        }
    }

    @Test("OPENAI_API_KEY goes wherever --base-url points, as before")
    func environmentKeyFollowsTheFlag() async throws {
        let settings = try await resolve(key, flags { $0.flag("base_url", "https://other.example/v1") })
        #expect(settings.server.apiKey == "sk-env")
        #expect(settings.notes.isEmpty)
    }

    @Test("a profile on its own server with no key gets OPENAI_API_KEY only when --base-url leaves it")
    func ownServerWithoutKey() async throws {
        let home = try await resolve(key, flags { $0.profile = "local" })
        #expect(home.server.apiKey == nil)
        let moved = try await resolve(
            key,
            flags {
                $0.profile = "local"
                $0.flag("base_url", "https://api.openai.com/v1")
            })
        #expect(moved.server.apiKey == "sk-env")
    }

    @Test(
        "origins",
        arguments: [
            ("https://a.example/v1", "https://A.EXAMPLE:443/x", true),
            ("http://a.example/v1", "http://a.example:80", true),
            ("http://a.example/v1", "https://a.example/v1", false),
            ("http://a.example:8080", "http://a.example:8081", false),
            ("http://a.example", "http://b.example", false), ("http://user:pw@[::1]:8/v1", "http://[::1]:8/", true),
            ("http://127.0.0.1:8080/v1", "http://localhost:8080/v1", false),
        ])
    func origins(_ a: String, _ b: String, _ same: Bool) async {
        #expect((URLOrigin(a) == URLOrigin(b)) == same)
        #expect(URLOrigin(a) != nil)
    }
}

// MARK: - Certificates

@Suite("TLS settings")
struct TLSSettingsTests {
    @Test("the CA file comes from --ca-cert, the profile, the top level, SSL_CERT_FILE, CURL_CA_BUNDLE, in that order")
    func caFileOrder() async throws {
        try await withTempDir { dir async throws in
            let files = ["flag", "profile", "top", "ssl", "curl"].map { dir.write("\($0).pem", "pem") }
            let path = dir.config(
                #"{"ca_cert": "\#(files[2])", "profiles": {"p": {"ca_cert": "\#(files[1])"}, "bare": {}}}"#)
            let environment = ["SSL_CERT_FILE": files[3], "CURL_CA_BUNDLE": files[4]].merging(key) { $1 }
            func tls(_ environment: [String: String], _ configure: (inout SettingOverrides) -> Void) async throws
                -> TLSConfiguration
            {
                try await resolve(config: path, environment, configure).server.tls
            }
            #expect(
                try await tls(environment) {
                    $0.profile = "p"; $0.flag("ca_cert", files[0])
                }.trustStore
                    == "\(files[0]) (from --ca-cert)")
            #expect(try await tls(environment) { $0.profile = "p" }.trustStore == "\(files[1]) (from profile p)")
            #expect(
                try await tls(environment) { $0.profile = "bare" }.trustStore == "\(files[2]) (from ca_cert in \(path))"
            )
            let bare = dir.write("bare.json", "{}")
            #expect(
                try await resolve(config: bare, environment).server.tls.trustStore == "\(files[3]) (from SSL_CERT_FILE)"
            )
            #expect(
                try await resolve(config: bare, ["CURL_CA_BUNDLE": files[4]].merging(key) { $1 }).server.tls.trustStore
                    == "\(files[4]) (from CURL_CA_BUNDLE)")
            #expect(try await resolve(config: bare, key).server.tls == TLSConfiguration())
        }
    }

    @Test("~/ is expanded, and a missing file is a setting error for https only")
    func pathsAreChecked() async throws {
        try await withTempDir { dir async throws in
            dir.write("home/ca.pem", "pem")
            let environment = ["HOME": dir.path + "/home"].merging(key) { $1 }
            let settings = try await resolve(environment, flags { $0.flag("ca_cert", "~/ca.pem") })
            #expect(settings.server.tls.caCertificate == dir.path + "/home/ca.pem")
            let error = await resolveError(environment, flags { $0.flag("client_cert", "~/none.pem") })
            #expect(
                line(error)
                    == ("the client certificate \(dir.path)/home/none.pem (from --client-cert) does not exist"))
            let plain = try await resolve(
                environment,
                flags {
                    $0.flag("client_cert", "~/none.pem")
                    $0.flag("base_url", "http://127.0.0.1:9/v1")
                })
            #expect(plain.server.tls.clientCertificate == dir.path + "/home/none.pem")
        }
    }
}
