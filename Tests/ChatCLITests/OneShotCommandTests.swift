import ChatTestSupport
import Foundation
import Testing

/// The built `chat` binary, run as a person runs it, against a loopback server.
@Suite struct OneShotCommandTests {
    private func answering(_ pieces: [String], pause: Double = 0) throws -> LoopbackServer {
        try LoopbackServer { _, _ in
            ServerStep.sse(pieces.map(ServerStep.chatChunk) + [ServerStep.finishChunk()], pause: pause)
        }
    }

    private func sentJSON(_ server: LoopbackServer, _ index: Int = 0) throws -> [String: Any] {
        let requests = server.requests
        try #require(requests.count > index, "the server got \(requests.count) requests")
        let body = Data(requests[index].body)
        return try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    }

    private func sentContent(_ server: LoopbackServer, _ index: Int = 0) throws -> String? {
        let messages = try #require(try sentJSON(server, index)["messages"] as? [[String: Any]])
        return messages.last?["content"] as? String
    }

    @Test func answerStreamsToStdoutAndEndsWithANewline() async throws {
        let server = try answering(["Hello", ", wörld", "!"])
        defer { server.stop() }
        let result = try await ChatBinary().run(["--base-url", server.baseURL, "say", "hello"])
        #expect(result.status == 0)
        #expect(result.stdout == "Hello, wörld!\n")
        #expect(result.stderr == "")
        #expect(try sentContent(server) == "say hello")
        #expect(server.requests.first?.path == "/v1/chat/completions")
    }

    @Test func wordsAfterThePromptStartAreTextEvenWithDashes() async throws {
        let server = try answering(["25"])
        defer { server.stop() }
        let chat = ChatBinary()
        _ = try await chat.run(["--base-url", server.baseURL, "what", "is", "-5", "squared", "--model", "x"])
        _ = try await chat.run(["--base-url", server.baseURL, "--", "--help", "me"])
        #expect(try sentContent(server, 0) == "what is -5 squared --model x")
        #expect(try sentContent(server, 1) == "--help me")
    }

    @Test func pipedStdinIsThePromptOrFollowsIt() async throws {
        let server = try answering(["ok"])
        defer { server.stop() }
        let chat = ChatBinary()
        _ = try await chat.run(["--base-url", server.baseURL], input: "just this\n")
        _ = try await chat.run(["--base-url", server.baseURL, "review", "this"], input: "diff --git a b\n+x\n")
        _ = try await chat.run(["--base-url", server.baseURL, "alone"], input: "")
        #expect(try sentContent(server, 0) == "just this")
        #expect(try sentContent(server, 1) == "review this\n\ndiff --git a b\n+x")
        #expect(try sentContent(server, 2) == "alone")
    }

    @Test func nothingToSendIsAUsageError() async throws {
        let result = try await ChatBinary().run(["--base-url", "http://127.0.0.1:9/v1"], input: "  \n")
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("chat: error: nothing to send"))
    }

    @Test func optionsReachTheRequest() async throws {
        let server = try answering(["ok"])
        defer { server.stop() }
        let chat = ChatBinary()
        _ = try await chat.run([
            "--base-url", server.baseURL + "/", "-m", "my-model", "-s", "be brief", "--temperature", "0.5",
            "--max-tokens", "42", "hi",
        ])
        _ = try await chat.run(["--base-url", server.baseURL, "hi"])
        let full = try sentJSON(server, 0)
        #expect(full["model"] as? String == "my-model")
        #expect(full["temperature"] as? Double == 0.5)
        #expect(full["max_tokens"] as? Int == 42)
        let messages = try #require(full["messages"] as? [[String: Any]])
        #expect(messages.first?["role"] as? String == "system")
        #expect(messages.first?["content"] as? String == "be brief")
        let plain = try sentJSON(server, 1)
        #expect(plain["model"] as? String == "gpt-4o-mini")
        #expect(plain["temperature"] == nil)
        #expect(plain["max_tokens"] == nil)
        #expect(server.requests[0].path == "/v1/chat/completions")
    }

    @Test func topPReachesTheRequestFromAFlagOrTheConfigAndIsLeftOutUnlessSet() async throws {
        let server = try answering(["ok"])
        defer { server.stop() }
        let chat = ChatBinary()
        _ = try await chat.run(["--base-url", server.baseURL, "--top-p", "0.9", "hi"])
        _ = try await chat.run(["--base-url", server.baseURL, "hi"])
        let config = try chat.writeConfig(#"{"top_p": 0.25, "profiles": {"p": {"top_p": 0.5}}}"#)
        _ = try await chat.run(["--config", config, "--base-url", server.baseURL, "hi"])
        _ = try await chat.run(["--config", config, "--profile", "p", "--base-url", server.baseURL, "hi"])
        _ = try await chat.run([
            "--config", config, "--profile", "p", "--top-p", "1", "--base-url", server.baseURL, "hi",
        ])
        #expect(try sentJSON(server, 0)["top_p"] as? Double == 0.9)
        #expect(try sentJSON(server, 1)["top_p"] == nil)
        #expect(try sentJSON(server, 2)["top_p"] as? Double == 0.25)
        #expect(try sentJSON(server, 3)["top_p"] as? Double == 0.5)
        #expect(try sentJSON(server, 4)["top_p"] as? Double == 1)
    }

    @Test func topPOutOfRangeIsAUsageOrConfigError() async throws {
        let chat = ChatBinary()
        let flag = try await chat.run(["--base-url", "http://127.0.0.1:9/v1", "--top-p", "1.5", "hi"])
        #expect(flag.status == 2)
        #expect(flag.stderr == "chat: error: --top-p expects a number from 0 to 1, got \"1.5\"\n")
        let config = try chat.writeConfig(#"{"top_p": -0.1}"#)
        let file = try await chat.run(["--config", config, "--base-url", "http://127.0.0.1:9/v1", "hi"])
        #expect(file.status == 2)
        #expect(file.stderr.contains("top_p: expected a number from 0.0 to 1.0, got -0.1"))
    }

    /// `seed`: a whole number, sent as `seed` from a flag, the config or a role, left out unless set.
    @Test func seedReachesTheRequestFromAFlagOrTheConfigAndIsLeftOutUnlessSet() async throws {
        let server = try answering(["ok"])
        defer { server.stop() }
        let chat = ChatBinary()
        _ = try await chat.run(["--base-url", server.baseURL, "--seed", "42", "hi"])
        _ = try await chat.run(["--base-url", server.baseURL, "hi"])
        let config = try chat.writeConfig(#"{"seed": 7, "roles": {"fixed": {"prompt": "p", "seed": 9}}}"#)
        _ = try await chat.run(["--config", config, "--base-url", server.baseURL, "hi"])
        _ = try await chat.run(["--config", config, "-r", "fixed", "--base-url", server.baseURL, "hi"])
        #expect(try sentJSON(server, 0)["seed"] as? Int == 42)
        #expect(try sentJSON(server, 1)["seed"] == nil)
        #expect(try sentJSON(server, 2)["seed"] as? Int == 7)
        #expect(try sentJSON(server, 3)["seed"] as? Int == 9)
        // Written as a whole number, as a seed must be.
        #expect(String(decoding: try server.request(0).body, as: UTF8.self).contains(#""seed":42"#))
    }

    @Test func aSeedThatIsNotAWholeNumberIsAUsageOrConfigError() async throws {
        let chat = ChatBinary()
        let flag = try await chat.run(["--base-url", "http://127.0.0.1:9/v1", "--seed", "1.5", "hi"])
        #expect(flag.status == 2)
        #expect(flag.stderr.hasPrefix("chat: error: --seed expects a whole number"), "\(flag.stderr)")
        let config = try chat.writeConfig(#"{"seed": "x"}"#)
        let file = try await chat.run(["--config", config, "--base-url", "http://127.0.0.1:9/v1", "hi"])
        #expect(file.status == 2)
        #expect(file.stderr.contains("seed: expected"), "\(file.stderr)")
    }

    @Test func noStreamAsksForAWholeAnswer() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.json(
                status: 200,
                #"{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"whole answer"},"finish_reason":"stop"}]}"#
            )
        }
        defer { server.stop() }
        let result = try await ChatBinary().run(["--base-url", server.baseURL, "--no-stream", "hi"])
        #expect(result.status == 0)
        #expect(result.stdout == "whole answer\n")
        #expect(try sentJSON(server)["stream"] as? Bool == false)
    }

    @Test func keyFromTheEnvironmentIsSentAndNeverShown() async throws {
        let key = "sk-test-SECRET-1234"
        let server = try LoopbackServer { _, _ in
            ServerStep.json(
                status: 401,
                #"{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}"#
            )
        }
        defer { server.stop() }
        let result = try await ChatBinary(environment: ["OPENAI_API_KEY": key]).run([
            "--base-url", server.baseURL, "hi",
        ])
        #expect(server.requests.first?.header("authorization") == "Bearer \(key)")
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("chat: error: 401 unauthorized: Incorrect API key provided"))
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(!result.stderr.contains("SECRET"))
    }

    @Test func missingKeyForARemoteServerFailsBeforeAnyRequest() async throws {
        let result = try await ChatBinary().run(["--base-url", "https://api.example.invalid/v1", "hi"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("no API key for https://api.example.invalid/v1"))
        #expect(result.stderr.contains("OPENAI_API_KEY"))
    }

    @Test func configErrorsNameTheFileAndKey() async throws {
        let chat = ChatBinary()
        let badType = try chat.writeConfig(#"{"temperature": "hot"}"#)
        let result = try await chat.run(["--config", badType, "hi"])
        #expect(result.status == 2)
        #expect(result.stderr.contains(badType))
        #expect(result.stderr.contains("temperature: expected a number"))

        let badJSON = try chat.writeConfig("{ nope", name: "broken.json")
        let second = try await chat.run(["--config", badJSON, "hi"])
        #expect(second.status == 2)
        #expect(second.stderr.contains("broken.json"))
        #expect(second.stderr.contains("not valid JSON"))
    }

    @Test func configFileAndProfileChooseTheServer() async throws {
        let server = try answering(["from profile"])
        defer { server.stop() }
        let chat = ChatBinary()
        let config = """
            {"model": "top-model", "default_profile": "box",
             "profiles": {"box": {"base_url": "\(server.baseURL)", "model": "box-model",
                                  "headers": {"X-Title": "chat-tests"}}}}
            """
        try FileManager.default.createDirectory(atPath: chat.home + "/config/chat", withIntermediateDirectories: true)
        try config.write(toFile: chat.home + "/config/chat/config.json", atomically: true, encoding: .utf8)
        let result = try await chat.run(["hi"])
        #expect(result.stdout == "from profile\n")
        #expect(try sentJSON(server)["model"] as? String == "box-model")
        #expect(server.requests.first?.header("x-title") == "chat-tests")
    }

    @Test func unknownOptionIsAUsageErrorWithASuggestion() async throws {
        let result = try await ChatBinary().run(["--modle", "x", "hi"])
        #expect(result.status == 2)
        #expect(result.stderr == "chat: error: unknown option --modle; did you mean --model?\n")
    }

    @Test func apiKeyFlagIsRefused() async throws {
        let result = try await ChatBinary().run(["--api-key", "sk-visible", "hi"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("never taken as a flag"))
        #expect(!result.stderr.contains("sk-visible"))
    }

    @Test func versionAndHelpGoToStdout() async throws {
        let chat = ChatBinary()
        let version = try await chat.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("chat "))
        let help = try await chat.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE:"))
        #expect(help.stdout.contains("--idle-timeout"))
    }

    @Test func connectionRefusedIsOneLineAndExitOne() async throws {
        let result = try await ChatBinary().run(["--base-url", "http://127.0.0.1:9/v1", "hi"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("chat: error: connection failed:"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func cutStreamKeepsThePartialAnswerAndFails() async throws {
        let server = try LoopbackServer { _, _ in
            [
                .head(status: 200, headers: [("Content-Type", "text/event-stream")], chunked: true),
                .text("data: \(ServerStep.chatChunk("partial answer"))\n\n"), .pause(0.05), .close,
            ]
        }
        defer { server.stop() }
        let result = try await ChatBinary().run(["--base-url", server.baseURL, "hi"])
        #expect(result.status == 1)
        #expect(result.stdout == "partial answer\n")
        #expect(result.stderr.contains("cut off"))
    }

    @Test func reasoningNeverReachesAPipedStdout() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.sse([
                #"{"choices":[{"index":0,"delta":{"reasoning_content":"thinking hard"}}]}"#,
                ServerStep.chatChunk("answer"), ServerStep.finishChunk(),
            ])
        }
        defer { server.stop() }
        let result = try await ChatBinary().run(["--base-url", server.baseURL, "hi"])
        #expect(result.stdout == "answer\n")
        #expect(!result.stdout.contains("thinking"))
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143)), (SIGHUP, Int32(129))])
    func signalMidAnswerKeepsTextAndExitsWithItsStatus(signal: Int32, status: Int32) async throws {
        // Fifty seconds of pieces: the signal comes long before the end, however busy the machine.
        let server = try answering((1...1000).map { "piece\($0) " }, pause: 0.05)
        defer { server.stop() }
        let running = try ChatBinary().start(["--base-url", server.baseURL, "hi"])
        #expect(await running.waitForOutput(containing: "piece2 ", timeout: 30))
        running.signal(signal)
        let result = await running.wait(timeout: 15)
        #expect(result.status == status)
        #expect(result.stdout.hasPrefix("piece1 piece2 "))
        #expect(result.stdout.hasSuffix("\n"))
        #expect(!result.stdout.contains("piece1000"))
        #expect(server.waitForDisconnects(1, timeout: 3))
    }

    @Test func pipedTextWithAPromptAndNoTerminalIsOneTurnWithItsStatus() async throws {
        let server = try LoopbackServer { _, index in
            index == 0
                ? ServerStep.sse([ServerStep.chatChunk("summary"), ServerStep.finishChunk()])
                : ServerStep.json(status: 500, #"{"error":{"message":"boom"}}"#)
        }
        defer { server.stop() }
        let chat = ChatBinary()
        let ok = try await chat.run(
            ["--base-url", server.baseURL, "--retries", "0", "-i", "summarise"], input: "notes\n")
        #expect(ok.status == 0)
        #expect(ok.stdout == "summary\n")
        #expect(try sentContent(server, 0) == "summarise\n\nnotes")
        let failed = try await chat.run(["--base-url", server.baseURL, "--retries", "0", "-i", "again"], input: "x\n")
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("500 server error: boom"))
    }

    @Test func closedStdoutEndsTheTransferQuietly() async throws {
        let server = try answering((1...400).map { "line \($0)\n" }, pause: 0.01)
        defer { server.stop() }
        let chat = ChatBinary()
        let script = "\"$0\" --base-url \"$1\" hi | head -n 2; echo \"status=${PIPESTATUS[0]}\""
        let result = try await chat.start(
            ["-c", script, ChatBinary.path, server.baseURL], executable: "/bin/bash"
        ).wait()
        let stdout = result.stdout
        let stderr = result.stderr
        #expect(stdout == "line 1\nline 2\nstatus=0\n")
        #expect(stderr == "")
        #expect(server.waitForDisconnects(1, timeout: 3))
    }
}
