import ChatTestSupport
import Foundation
import Testing

/// `fallback`: an answer that fails before any of its text with an overload, a server error or
/// a model the server does not have goes to the next profile of the list (here from an
/// OpenAI-wire server to an Anthropic one), with one note on stderr and a `fallback` event in
/// `--json`; never after a 400 or 401, nor for the model `-m` named; an unknown profile in the
/// list is a config error.
@Suite struct FallbackCommandTests {
    /// A Messages API stream that answers `text`.
    static func claude(_ text: String) -> [ServerStep] {
        AnthropicCLITests.stream(text)
    }

    /// `chat` with a `main` profile (OpenAI's API at `openAI`, one retry) whose `fallback` is
    /// `claude` (Anthropic's API at `anthropic`).
    static func chat(openAI: LoopbackServer, anthropic: LoopbackServer, fallback: String = #"["claude"]"#) throws
        -> (ChatBinary, [String])
    {
        let chat = ChatBinary(environment: ["ANTHROPIC_API_KEY": "sk-ant-secret", "OPENAI_API_KEY": "sk-openai-secret"])
        let path = try chat.writeConfig(
            #"""
            {"profiles": {
              "main": {"base_url": "\#(openAI.baseURL)", "model": "gpt-main", "retries": 1, "fallback": \#(fallback)},
              "claude": {"provider": "anthropic", "base_url": "\#(anthropic.baseURL)"}}}
            """#)
        return (chat, ["--config", path, "--profile", "main"])
    }

    static let overloaded = ServerStep.json(
        status: 503, #"{"error":{"message":"The server is overloaded","type":"server_error"}}"#)

    @Test func a503AfterItsRetryGoesToTheNextProfileWithOneNote() async throws {
        let openAI = try LoopbackServer { _, _ in Self.overloaded }
        defer { openAI.stop() }
        let anthropic = try LoopbackServer { _, _ in Self.claude("Hello from Claude") }
        defer { anthropic.stop() }
        let (chat, options) = try Self.chat(openAI: openAI, anthropic: anthropic)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(options + ["what is 2+2?"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Hello from Claude\n")
        #expect(
            result.stderr
                == "chat: note: profile main failed (503 server error: The server is overloaded); asking profile "
                + "claude (claude-haiku-4-5) instead\n")
        // The first server was asked twice (its one retry), the second once, with the same
        // conversation and its own model and key.
        #expect(openAI.requests.count == 2)
        let request = try #require(anthropic.requests.first)
        #expect(anthropic.requests.count == 1)
        #expect(request.path == "/v1/messages")
        #expect(request.header("x-api-key") == "sk-ant-secret")
        #expect(request.bodyText.contains(#""model":"claude-haiku-4-5""#), "\(request.bodyText)")
        #expect(request.bodyText.contains("what is 2+2?"))

        // The stored answer records the profile and model that gave it; the conversation goes on
        // with its own profile's model.
        let listed = try await chat.run(["--list"])
        let id = String(
            try #require(listed.stdout.split(separator: "\n").first { $0.contains("2+2") }).prefix { $0 != " " })
        let shown = try await chat.run(["--show", id])
        #expect(shown.stdout.contains("assistant: (profile claude, claude-haiku-4-5)"), "\(shown.stdout)")
        #expect(shown.stdout.contains("Hello from Claude"))
        let exported = try await chat.run(["--export", id])
        #expect(exported.stdout.contains("Model: gpt-main\n"), "\(exported.stdout)")
        // --stats counts the answer under the model and provider that gave it.
        let stats = try await chat.run(["--stats", "--json"])
        let rows = try stats.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(rows.count == 1, "\(stats.stdout)")
        #expect(rows.first?["model"] as? String == "claude-haiku-4-5")
        #expect(rows.first?["provider"] as? String == "anthropic")
        #expect(rows.first?["answers"] as? Int == 1)
    }

    @Test func jsonWritesAFallbackEventNamingBothProfiles() async throws {
        let openAI = try LoopbackServer { _, _ in
            ServerStep.json(status: 429, #"{"error":{"message":"Rate limit reached","type":"requests"}}"#)
        }
        defer { openAI.stop() }
        let anthropic = try LoopbackServer { _, _ in Self.claude("Hi") }
        defer { anthropic.stop() }
        let (chat, options) = try Self.chat(openAI: openAI, anthropic: anthropic)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(options + ["--json", "--retries", "0", "hi"])
        #expect(result.status == 0, "\(result.stderr)")
        let events = try result.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let types = events.compactMap { $0["type"] as? String }
        #expect(types.first == "start" && types.last == "done", "\(types)")
        let fallback = try #require(events.first { $0["type"] as? String == "fallback" })
        #expect(fallback["from"] as? String == "main")
        #expect(fallback["to"] as? String == "claude")
        #expect(fallback["model"] as? String == "claude-haiku-4-5")
        #expect(fallback["kind"] as? String == "rate_limited")
        #expect(fallback["status"] as? Int == 429)
        #expect(types.firstIndex(of: "fallback")! < types.firstIndex(of: "delta")!)
        #expect(result.stderr.hasPrefix("chat: note: profile main failed (429 rate limited: Rate limit reached"))
        #expect(openAI.requests.count == 1)
    }

    @Test(arguments: [
        (400, #"{"error":{"message":"Invalid value for temperature","type":"invalid_request_error"}}"#),
        (401, #"{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}"#),
        (403, #"{"error":{"message":"You may not use this model","type":"invalid_request_error"}}"#),
    ])
    func aRequestTheServerRefusedDoesNotFallBack(status: Int, body: String) async throws {
        let openAI = try LoopbackServer { _, _ in ServerStep.json(status: status, body) }
        defer { openAI.stop() }
        let anthropic = try LoopbackServer { _, _ in Self.claude("should not be asked") }
        defer { anthropic.stop() }
        let (chat, options) = try Self.chat(openAI: openAI, anthropic: anthropic)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(options + ["hi"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("chat: error: \(status) "), "\(result.stderr)")
        #expect(!result.stderr.contains("note"))
        #expect(anthropic.requests.isEmpty)
    }

    static let modelNotFound = ServerStep.json(
        status: 404,
        #"{"error":{"message":"The model `gpt-nope` does not exist or you do not have access to it.","#
            + #""type":"invalid_request_error","code":"model_not_found"}}"#)

    @Test func theModelMinusMNamedBeingNotFoundStaysTheErrorItIs() async throws {
        let openAI = try LoopbackServer { _, _ in Self.modelNotFound }
        defer { openAI.stop() }
        let anthropic = try LoopbackServer { _, _ in Self.claude("should not be asked") }
        defer { anthropic.stop() }
        let (chat, options) = try Self.chat(openAI: openAI, anthropic: anthropic)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(options + ["-m", "gpt-nope", "hi"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("chat: error: 404 not found"), "\(result.stderr)")
        #expect(anthropic.requests.isEmpty)
    }

    @Test func theProfilesOwnModelBeingNotFoundFallsBack() async throws {
        let openAI = try LoopbackServer { _, _ in Self.modelNotFound }
        defer { openAI.stop() }
        let anthropic = try LoopbackServer { _, _ in Self.claude("Claude here") }
        defer { anthropic.stop() }
        let (chat, options) = try Self.chat(openAI: openAI, anthropic: anthropic)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(options + ["hi"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Claude here\n")
        #expect(result.stderr.hasPrefix("chat: note: profile main failed (404 not found"), "\(result.stderr)")
        #expect(openAI.requests.count == 1)
    }

    @Test func anOverloadInTheStreamBeforeAnyTextFallsBack() async throws {
        // An Anthropic profile whose stream says overloaded_error, falling back to an OpenAI one.
        let overloaded = try LoopbackServer { _, _ in
            [
                .head(status: 200, headers: [("Content-Type", "text/event-stream")], chunked: true),
                .text(
                    "event: error\n"
                        + #"data: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#
                        + "\n\n"),
                .end,
            ]
        }
        defer { overloaded.stop() }
        let openAI = try LoopbackServer { _, _ in ServerStep.sse([ServerStep.chatChunk("From GPT")]) }
        defer { openAI.stop() }
        let chat = ChatBinary(environment: ["ANTHROPIC_API_KEY": "sk-ant-secret", "OPENAI_API_KEY": "sk-openai-secret"])
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let path = try chat.writeConfig(
            #"""
            {"fallback": ["gpt"], "profiles": {
              "claude": {"provider": "anthropic", "base_url": "\#(overloaded.baseURL)"},
              "gpt": {"base_url": "\#(openAI.baseURL)", "model": "gpt-test"}}}
            """#)
        let result = try await chat.run(["--config", path, "--profile", "claude", "hi"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "From GPT\n")
        #expect(
            result.stderr.hasPrefix("chat: note: profile claude failed (the server is overloaded: Overloaded"),
            "\(result.stderr)")
        let request = try #require(openAI.requests.first)
        #expect(request.path == "/v1/chat/completions")
        #expect(request.bodyText.contains(#""model":"gpt-test""#), "\(request.bodyText)")
        #expect(overloaded.requests.count == 1)
    }

    @Test func anUnknownProfileInTheListIsAConfigErrorOfOneLine() async throws {
        let openAI = try LoopbackServer { _, _ in ServerStep.sse([ServerStep.chatChunk("unused")]) }
        defer { openAI.stop() }
        let anthropic = try LoopbackServer { _, _ in Self.claude("unused") }
        defer { anthropic.stop() }
        let (chat, options) = try Self.chat(openAI: openAI, anthropic: anthropic, fallback: #"["claude", "cluade"]"#)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(options + ["hi"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("chat: error: no profile named \"cluade\" (fallback in profile main); known"))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(result.stderr)")
        #expect(openAI.requests.isEmpty && anthropic.requests.isEmpty)
    }
}
