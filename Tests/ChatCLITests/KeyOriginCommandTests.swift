import ChatTestSupport
import Foundation
import Testing

/// A key goes only where it was configured to go: the built binary with a profile whose key
/// belongs to one loopback server (`home`) and `--base-url` pointing at another (`other`, another
/// port: another origin), for each way a key can be configured; a redirect to another origin.
@Suite struct KeyOriginCommandTests {
    private static func answering() throws -> LoopbackServer {
        try LoopbackServer { _, _ in ServerStep.sse([ServerStep.chatChunk("ok"), ServerStep.finishChunk()]) }
    }

    /// The profile's key member for each source, the file or variable it needs, and its key.
    private static func sources(_ chat: ChatBinary) throws -> [(member: String, environment: [String: String])] {
        let file = chat.home + "/smart.key"
        try "sk-file-SMART-SECRET\n".write(toFile: file, atomically: true, encoding: .utf8)
        return [
            (#""api_key": "sk-literal-SMART-SECRET""#, [:]),
            (#""api_key_env": "SMART_KEY""#, ["SMART_KEY": "sk-env-SMART-SECRET"]),
            (#""api_key_file": "\#(file)""#, [:]),
            (#""api_key_command": "echo sk-command-SMART-SECRET""#, [:]),
        ]
    }

    @Test func aProfilesKeyStaysWithItsServerWhenBaseURLPointsElsewhere() async throws {
        let home = try Self.answering()
        let other = try Self.answering()
        defer {
            home.stop()
            other.stop()
        }
        var chat = ChatBinary()
        for (member, environment) in try Self.sources(chat) {
            chat.environment.merge(environment) { $1 }
            let config = try chat.writeConfig(
                #"{"profiles": {"smart": {"base_url": "\#(home.baseURL)", \#(member)}}}"#)

            // Without --base-url the key goes home.
            let atHome = try await chat.run(["--config", config, "--profile", "smart", "hi"])
            #expect(atHome.status == 0, "\(member): \(atHome.stderr)")
            #expect(home.requests.last?.header("Authorization")?.hasPrefix("Bearer sk-") == true, "\(member)")
            #expect(atHome.stderr == "")

            // With --base-url elsewhere it stays home: no key, and a note.
            let homeCount = home.requests.count
            let moved = try await chat.run([
                "--config", config, "--profile", "smart", "--base-url", other.baseURL, "hi",
            ])
            #expect(moved.status == 0, "\(member): \(moved.stderr)")
            #expect(moved.stdout == "ok\n")
            #expect(home.requests.count == homeCount)
            #expect(other.requests.last?.header("Authorization") == nil, "\(member)")
            #expect(
                moved.stderr
                    == "chat: the API key of profile smart stays with http://127.0.0.1:\(home.port); --base-url goes "
                    + "to http://127.0.0.1:\(other.port), so the request carries no key\n")
            #expect(!moved.stderr.contains("SECRET") && !moved.stdout.contains("SECRET"))

            // With OPENAI_API_KEY set, that goes instead, as for a run without a profile.
            var withEnvironmentKey = chat
            withEnvironmentKey.environment["OPENAI_API_KEY"] = "sk-ambient"
            let ambient = try await withEnvironmentKey.run([
                "--config", config, "--profile", "smart", "--base-url", other.baseURL, "hi",
            ])
            #expect(ambient.status == 0, "\(member): \(ambient.stderr)")
            #expect(other.requests.last?.header("Authorization") == "Bearer sk-ambient", "\(member)")
            #expect(ambient.stderr.contains("so the request carries OPENAI_API_KEY"))
        }
    }

    @Test func aDefaultProfileWithAnUnsetKeyVariableDoesNotBlockALoopbackBaseURL() async throws {
        let server = try Self.answering()
        defer { server.stop() }
        let chat = ChatBinary()
        let config = try chat.writeConfig(
            #"{"default_profile": "fast", "profiles": {"fast": {"base_url": "https://fast.example/v1", "api_key_env": "FAST_KEY"}}}"#
        )
        let result = try await chat.run([
            "--config", config, "--base-url", "http://localhost:\(server.port)/v1", "hi",
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout == "ok\n")
        #expect(server.requests.first?.header("Authorization") == nil)
        #expect(result.stderr.contains("the API key of profile fast stays with https://fast.example"))
        // Without --base-url the key is needed, and its absence is a config error, as before.
        let home = try await chat.run(["--config", config, "hi"])
        #expect(home.status == 2)
        #expect(home.stderr.contains("profiles.fast.api_key_env names FAST_KEY, which is not set"))
    }

    @Test func aRedirectIsNeverFollowedWithTheKey() async throws {
        let elsewhere = try Self.answering()
        defer { elsewhere.stop() }
        for status in [301, 302, 307, 308] {
            let server = try LoopbackServer { _, _ in
                ServerStep.json(
                    status: status, "", headers: [("Location", "\(elsewhere.baseURL)/chat/completions")])
            }
            defer { server.stop() }
            let chat = ChatBinary(environment: ["OPENAI_API_KEY": "sk-redirect-SECRET-0123"])
            let result = try await chat.run(["--base-url", server.baseURL, "--retries", "2", "hi"])
            #expect(result.status == 1)
            #expect(
                result.stderr.contains("the server redirected to \(elsewhere.baseURL)/chat/completions (\(status))"))
            #expect(!result.stderr.contains("SECRET"))
            #expect(server.requests.count == 1)
            #expect(server.requests.first?.header("Authorization") == "Bearer sk-redirect-SECRET-0123")
        }
        #expect(elsewhere.requests.isEmpty)
    }
}
