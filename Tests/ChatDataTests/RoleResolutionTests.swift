import ChatDomain
import Foundation
import Testing

@testable import ChatConfig

/// Roles in the config and on the command line: where a role comes in the precedence (flags >
/// role > profile > environment > top level > defaults), the profile it names, the built-in
/// roles a config changes, and the errors.
@Suite struct RoleResolutionTests {
    private let directory = NSTemporaryDirectory() + "chat-roles-\(UUID().uuidString)"

    /// Writes `json` as a config file; its path.
    private func config(_ json: String) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/config.json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func resolve(
        _ path: String, environment: [String: String] = [:], _ configure: (inout SettingOverrides) throws -> Void
    ) async throws -> ResolvedSettings {
        var overrides = SettingOverrides()
        overrides.configPath = path
        try configure(&overrides)
        return try await SettingsResolver(environment: environment).resolve(overrides)
    }

    private static let file = """
        {
          "base_url": "http://127.0.0.1:1/v1", "model": "top-model", "temperature": 1.5, "max_tokens": 10,
          "system_prompt": "top prompt",
          "default_profile": "usual",
          "profiles": {
            "usual": {"model": "usual-model"},
            "fast": {"model": "fast-model", "temperature": 0.9, "top_p": 0.5}
          },
          "roles": {
            "review": {"prompt": "Review this:\\n{{input}}", "temperature": 0.2, "profile": "fast"},
            "terse": {"prompt": "Be terse.", "model": "terse-model", "max_tokens": 50},
            "code": {"model": "code-model"}
          }
        }
        """

    @Test func aRoleComesBetweenTheFlagsAndTheProfile() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try config(Self.file)
        let terse = try await resolve(path) { $0.role = "terse" }
        #expect(terse.systemPrompt == "Be terse.")
        #expect(terse.chat.model == "terse-model")
        #expect(terse.chat.sampling[.maxTokens] == .wholeNumber(50))
        // What the role leaves: the profile's, then the top level's.
        #expect(terse.chat.sampling[.temperature] == .number(1.5))
        #expect(terse.profile == "usual")
        #expect(terse.role?.name == "terse")
        // The command line counts the role as given, so -c takes it over a stored conversation's.
        #expect(terse.given.model == "terse-model")
        #expect(terse.givenSystemPrompt == "Be terse.")

        // Flags win over the role.
        let flagged = try await resolve(path) {
            $0.role = "terse"
            try $0.set("model", text: "flag-model", flag: "--model")
            try $0.set("system_prompt", text: "flag prompt", flag: "--system")
        }
        #expect(flagged.chat.model == "flag-model")
        #expect(flagged.systemPrompt == "flag prompt")
        #expect(flagged.chat.sampling[.maxTokens] == .wholeNumber(50))
    }

    @Test func aRoleThatNamesAProfileSelectsItUnlessProfileIsGiven() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try config(Self.file)
        let review = try await resolve(path) { $0.role = "review" }
        #expect(review.profile == "fast")
        #expect(review.chat.model == "fast-model")
        // The role's temperature beats its profile's; the profile's top_p stays.
        #expect(review.chat.sampling[.temperature] == .number(0.2))
        #expect(review.chat.sampling[.topP] == .number(0.5))
        // A template is no system prompt: the one below it stays.
        #expect(review.systemPrompt == "top prompt")
        #expect(review.role?.isTemplate == true)
        #expect(review.role?.message(for: "diff") == "Review this:\ndiff")

        let explicit = try await resolve(path) {
            $0.role = "review"
            $0.profile = "usual"
        }
        #expect(explicit.profile == "usual")
        #expect(explicit.chat.model == "usual-model")
        #expect(explicit.chat.sampling[.temperature] == .number(0.2))
    }

    @Test func theBuiltInRolesAndWhatAConfigAddsToThem() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try config(Self.file)
        let roles = try SettingsResolver(environment: [:]).roles(configPath: path)
        #expect(roles.map(\.name) == ["code", "explain", "review", "shell", "terse"])
        let code = try #require(roles.first { $0.name == "code" })
        #expect(code.isBuiltIn)
        #expect(code.settings.model == "code-model")
        #expect(code.prompt.hasPrefix("Answer with code only"))
        #expect(roles.first { $0.name == "terse" }?.isBuiltIn == false)
        // What a running REPL's /role cannot change: the review role's profile; nothing of the others.
        #expect(roles.first { $0.name == "review" }?.setsForTheRun == ["profile"])
        #expect(roles.filter { $0.name != "review" }.allSatisfy { $0.setsForTheRun.isEmpty })

        let shell = try await resolve(path, environment: ["SHELL": "/usr/bin/zsh"]) { $0.role = "shell" }
        let prompt = try #require(shell.systemPrompt)
        #expect(prompt.contains("one command for the zsh shell on "))
        #expect(!prompt.contains("{{"))
        #expect(shell.role?.prompt == prompt)
        // Without a config, the built-in roles are there all the same.
        let none = try SettingsResolver(environment: ["HOME": "/nonexistent"]).roles(configPath: nil)
        #expect(none.map(\.name) == ["code", "explain", "shell"])
    }

    @Test func aRoleSaysWhichOfItsSettingsAreTheRuns() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try config(
            """
            {"roles": {"deep": {"prompt": "Think.", "model": "m", "temperature": 0.3, "thinking_budget": 2048,
              "cache": true, "tools": ["time"]}}}
            """)
        let deep = try #require(
            try SettingsResolver(environment: [:]).roles(configPath: path).first { $0.name == "deep" })
        #expect(deep.setsForTheRun == ["cache", "thinking_budget", "tools"])
        #expect(deep.settings.model == "m")
    }

    @Test func rolesThatCannotBeUsedAreErrors() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try config(Self.file)
        await #expect(
            throws: SettingsError.noRole(name: "nope", known: ["code", "explain", "review", "shell", "terse"])
        ) {
            try await resolve(path) { $0.role = "nope" }
        }
        #expect(
            line(.noRole(name: "nope", known: ["code", "explain", "review", "shell", "terse"]))
                == #"no role named "nope" (--role); known roles: code, explain, review, shell, terse"#)
        for (json, message) in [
            (#"{"roles": {"x": {"model": "m"}}}"#, "roles.x: a role needs a prompt"),
            (#"{"roles": {"x": {"prompt": "p", "colour": 1}}}"#, "roles.x.colour: unknown key"),
            (#"{"roles": {"x": {"prompt": "p", "temperature": 7}}}"#, "roles.x.temperature: expected a number from"),
            (#"{"roles": {"x": "p"}}"#, "roles.x: expected an object, got a string"),
            (#"{"roles": []}"#, "roles: expected an object of roles, got an array"),
        ] {
            let bad = try config(json)
            do throws(SettingsError) {
                _ = try SettingsResolver(environment: [:]).roles(configPath: bad)
                Issue.record("\(json) was accepted")
            } catch {
                let text: String = line(error)
                #expect(text.contains(message), "\(text)")
            }
        }
        let missing = try config(
            #"{"base_url": "http://127.0.0.1:1/v1", "roles": {"x": {"prompt": "p", "profile": "gone"}}}"#)
        do {
            _ = try await resolve(missing) { $0.role = "x" }
            Issue.record("a missing profile was accepted")
        } catch let error as SettingsError {
            #expect(line(error).hasPrefix(#"no profile named "gone" (role x in "#))
        }
    }
}

@Suite struct PromptRoleTests {
    @Test func aTemplateTakesTheInputAndGivesNoSystemPrompt() {
        let template = PromptRole(name: "review", prompt: "Review:\n{{input}}\nEnd {{input}}")
        #expect(template.isTemplate)
        #expect(template.systemPrompt == nil)
        #expect(template.message(for: "x") == "Review:\nx\nEnd x")
        let plain = PromptRole(name: "terse", prompt: "Be terse.")
        #expect(plain.systemPrompt == "Be terse.")
        #expect(plain.message(for: "x") == "x")
    }

    @Test func fillingLeavesTheInputAndUnknownPlaceholders() {
        let role = PromptRole(name: "s", prompt: "{{shell}} on {{os}}: {{input}} {{other}}")
        #expect(
            role.filling(["shell": "fish", "os": "Linux", "input": "no"]).prompt == "fish on Linux: {{input}} {{other}}"
        )
    }

    @Test func applyingSetsTheSystemPromptAndTheSettingsTheRoleSets() {
        let conversation = Conversation(
            systemPrompt: "old",
            settings: ChatSettings(
                model: "m", sampling: [.temperature: .number(1), .maxTokens: .wholeNumber(5)], stream: false))
        let role = PromptRole(
            name: "r", prompt: "new", settings: ChatSettings(model: "", sampling: [.temperature: .number(0.2)]))
        let applied = role.apply(to: conversation)
        #expect(applied.systemPrompt == "new")
        #expect(
            applied.settings
                == ChatSettings(
                    model: "m", sampling: [.temperature: .number(0.2), .maxTokens: .wholeNumber(5)], stream: false))
        let template = PromptRole(name: "t", prompt: "{{input}}", settings: ChatSettings(model: "t-model"))
        #expect(template.apply(to: conversation).systemPrompt == "old")
        #expect(template.apply(to: conversation).settings.model == "t-model")
    }
}
