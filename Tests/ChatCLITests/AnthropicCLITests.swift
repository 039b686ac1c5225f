import ChatTestSupport
import Foundation
import Testing

/// The built `chat` with `"provider": "anthropic"` against a loopback server that speaks the
/// Messages API: the answer on stdout, the key as `x-api-key` and never shown, a cut answer's
/// note, an overload mid-stream; and OpenAI's `length` noted the same way.
@Suite struct AnthropicCLITests {
    static func stream(_ text: String, stop: String = "end_turn", error: Bool = false) -> [ServerStep] {
        var events = [
            #"event: message_start"# + "\n"
                + #"data: {"type":"message_start","message":{"content":[],"usage":{"input_tokens":5,"output_tokens":1}}}"#,
            #"event: content_block_start"# + "\n"
                + #"data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#,
            #"event: content_block_delta"# + "\n"
                + #"data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\#(text)"}}"#,
        ]
        if error {
            events.append(
                "event: error\n" + #"data: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#
            )
        } else {
            events += [
                "event: content_block_stop\n" + #"data: {"type":"content_block_stop","index":0}"#,
                "event: message_delta\n"
                    + #"data: {"type":"message_delta","delta":{"stop_reason":"\#(stop)"},"usage":{"output_tokens":7}}"#,
                "event: message_stop\n" + #"data: {"type":"message_stop"}"#,
            ]
        }
        return [.head(status: 200, headers: [("Content-Type", "text/event-stream")], chunked: true)]
            + events.map { ServerStep.text($0 + "\n\n") } + [.end]
    }

    /// `chat` with a `claude` profile for `server`, both keys in its environment.
    static func chat(for server: LoopbackServer) throws -> (ChatBinary, [String]) {
        let chat = ChatBinary(environment: ["ANTHROPIC_API_KEY": "sk-ant-secret", "OPENAI_API_KEY": "sk-openai-secret"])
        let path = try chat.writeConfig(
            #"{"profiles": {"claude": {"provider": "anthropic", "base_url": "\#(server.baseURL)"}}}"#)
        return (chat, ["--config", path, "--profile", "claude"])
    }

    @Test func anAnswerComesFromTheMessagesAPIWithAnthropicsKeyOnly() async throws {
        let server = try LoopbackServer { _, _ in Self.stream("Hello from Claude") }
        defer { server.stop() }
        let (chat, options) = try Self.chat(for: server)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(options + ["-v", "hi"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Hello from Claude\n")
        let request = try #require(server.requests.first)
        #expect(request.path == "/v1/messages")
        #expect(request.header("x-api-key") == "sk-ant-secret")
        #expect(request.header("anthropic-version") == "2023-06-01")
        #expect(request.header("Authorization") == nil)
        #expect(request.bodyText.contains(#""max_tokens":8192"#))
        #expect(result.stderr.contains("x-api-key: [redacted]"))
        #expect(!result.stderr.contains("sk-ant-secret") && !result.stderr.contains("sk-openai-secret"))
    }

    @Test func anAnswerCutAtMaxTokensGetsOneNoteAndExitsZero() async throws {
        let server = try LoopbackServer { _, _ in Self.stream("Once upon a", stop: "max_tokens") }
        defer { server.stop() }
        let (chat, options) = try Self.chat(for: server)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(options + ["--max-tokens", "3", "tell a story"])
        #expect(result.status == 0)
        #expect(result.stdout == "Once upon a\n")
        #expect(
            result.stderr
                == "chat: note: the answer was cut off at the token limit (raise it with --max-tokens, or max_tokens "
                + "in the config)\n")
        #expect(server.requests.first?.bodyText.contains(#""max_tokens":3"#) == true)
    }

    @Test func anOverloadMidStreamIsAnErrorWithTheTextKept() async throws {
        let server = try LoopbackServer { _, _ in Self.stream("Partial", error: true) }
        defer { server.stop() }
        let (chat, options) = try Self.chat(for: server)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(options + ["hi"])
        #expect(result.status == 1)
        #expect(result.stdout == "Partial\n")
        #expect(
            result.stderr
                == "chat: error: the server is overloaded: Overloaded (try again in a moment; the config's fallback "
                + "can name profiles to ask instead)\n")
        #expect(server.requests.count == 1)
    }

    @Test func aStoredConversationRecordsTheProviderAndAnotherCanContinueIt() async throws {
        let anthropic = try LoopbackServer { _, _ in Self.stream("Hello from Claude") }
        defer { anthropic.stop() }
        let openAI = try LoopbackServer { _, _ in ServerStep.sse([ServerStep.chatChunk("Hi from GPT")]) }
        defer { openAI.stop() }
        let (chat, options) = try Self.chat(for: anthropic)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        #expect(try await chat.run(options + ["hi there"]).status == 0)
        let id = try await chat.id(of: "hi there")
        let shown = try await chat.run(["--export", id])
        #expect(shown.stdout.contains("Model: claude-haiku-4-5 (provider anthropic)\n"), "\(shown.stdout)")

        // Continued through OpenAI's API (its model named: the conversation's own would stay).
        let continued = try await chat.run(["--base-url", openAI.baseURL, "-m", "gpt-test", "-c", "and you?"])
        #expect(continued.status == 0, "\(continued.stderr)")
        #expect(continued.stdout == "Hi from GPT\n")
        let request = try #require(openAI.requests.first)
        #expect(request.header("Authorization") == "Bearer sk-openai-secret")
        #expect(
            request.bodyText.contains(#"{"content":"Hello from Claude","role":"assistant"}"#), "\(request.bodyText)")
        let after = try await chat.run(["--export", id])
        #expect(after.stdout.contains("Model: gpt-test\n"), "\(after.stdout)")
    }

    @Test func openAIsLengthFinishGetsTheSameNote() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.sse([ServerStep.chatChunk("Once upon a"), ServerStep.finishChunk("length")])
        }
        defer { server.stop() }
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(["--base-url", server.baseURL, "tell a story"])
        #expect(result.status == 0)
        #expect(result.stdout == "Once upon a\n")
        #expect(result.stderr.hasPrefix("chat: note: the answer was cut off at the token limit"))
        #expect(server.requests.first?.header("Authorization") == nil)
    }
}
