import ChatTestSupport
import Foundation
import Testing

/// A stream that breaks after some of the answer was shown: on Anthropic, for a model that takes a
/// prefill, resumed with the text so far as the assistant's last message (trailing whitespace left
/// out of it, and not shown twice), the answer on stdout exactly once; for a model that refuses a
/// prefill (the table's, or one that answers the 400), and on OpenAI's API, the text shown stays
/// and one line says where it broke.
@Suite struct BrokenStreamTests {
    /// The events of a Messages stream with text `pieces`, without its end.
    static func start(_ pieces: [String]) -> [ServerStep] {
        var events = [
            "event: message_start\n"
                + #"data: {"type":"message_start","message":{"content":[],"usage":{"input_tokens":5,"output_tokens":1}}}"#,
            "event: content_block_start\n"
                + #"data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#,
        ]
        for piece in pieces {
            let data = try! JSONSerialization.data(
                withJSONObject: [
                    "type": "content_block_delta", "index": 0, "delta": ["type": "text_delta", "text": piece],
                ]
                    as [String: Any])
            events.append("event: content_block_delta\ndata: " + String(decoding: data, as: UTF8.self))
        }
        return [.head(status: 200, headers: [("Content-Type", "text/event-stream")], chunked: true)]
            + events.map { ServerStep.text($0 + "\n\n") }
    }

    /// A whole Messages stream with text `pieces`.
    static func whole(_ pieces: [String]) -> [ServerStep] {
        start(pieces)
            + [
                "event: content_block_stop\n" + #"data: {"type":"content_block_stop","index":0}"#,
                "event: message_delta\n"
                    + #"data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":7}}"#,
                "event: message_stop\n" + #"data: {"type":"message_stop"}"#,
            ].map { ServerStep.text($0 + "\n\n") } + [.end]
    }

    /// `chat` with a `claude` profile for `server`, asking `model`.
    static func chat(for server: LoopbackServer, model: String) throws -> (ChatBinary, [String]) {
        let chat = ChatBinary(environment: ["ANTHROPIC_API_KEY": "sk-ant-secret"])
        let path = try chat.writeConfig(
            #"""
            {"profiles": {"claude": {"provider": "anthropic", "base_url": "\#(server.baseURL)", "model": "\#(model)"}}}
            """#)
        return (chat, ["--config", path, "--profile", "claude"])
    }

    /// The messages of a request's JSON body.
    static func messages(_ request: RecordedRequest) throws -> [[String: Any]] {
        let body = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
        return try #require(body["messages"] as? [[String: Any]])
    }

    /// The text of a message's blocks, joined.
    static func text(_ message: [String: Any]) -> String {
        if let text = message["content"] as? String { return text }
        let blocks = message["content"] as? [[String: Any]] ?? []
        return blocks.compactMap { $0["text"] as? String }.joined()
    }

    @Test(arguments: [
        // A break after a space: the prefill ends at "is"; the continuation's own space is not
        // shown twice.
        (["The answer ", "is "], [" forty-two."], "The answer is forty-two."),
        // After a paragraph's end: both newlines left out of the prefill, given back once.
        (["First paragraph.\n\n"], ["\n\nSecond one."], "First paragraph.\n\nSecond one."),
        // A continuation that starts without the whitespace: appended where the text stopped.
        (["Hello,\n"], ["world"], "Hello,\nworld"),
    ])
    func anAnthropicStreamCutMidTextIsResumedByteExactly(shown: [String], continuation: [String], whole: String)
        async throws
    {
        let server = try LoopbackServer { _, index in
            index == 0 ? Self.start(shown) + [.close] : Self.whole(continuation)
        }
        defer { server.stop() }
        let (chat, options) = try Self.chat(for: server, model: "claude-haiku-4-5")
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(options + ["--render", "never", "question"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == whole + "\n")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(server.requests.count == 2)
        // The second request is the first one with the text shown as the assistant's last
        // message, its trailing whitespace left out.
        let first = try Self.messages(server.requests[0])
        let second = try Self.messages(server.requests[1])
        #expect(second.count == first.count + 1)
        let prefill = try #require(second.last)
        #expect(prefill["role"] as? String == "assistant")
        let shownText = shown.joined()
        var trimmed = Substring(shownText)
        while trimmed.last?.isWhitespace == true { trimmed.removeLast() }
        #expect(Self.text(prefill) == String(trimmed))
        #expect(Self.text(second[second.count - 2]) == "question")

        // The stored answer is the whole text, marked resumed.
        let listed = try await chat.run(["--list"])
        let id = String(
            try #require(listed.stdout.split(separator: "\n").first { $0.contains("question") }).prefix { $0 != " " })
        let shownConversation = try await chat.run(["--show", id])
        #expect(shownConversation.stdout.contains("assistant: (resumed)"), "\(shownConversation.stdout)")
        #expect(shownConversation.stdout.contains("\n" + whole + "\n\n"), "\(shownConversation.stdout)")
    }

    @Test func aStreamThatGoesQuietIsResumedAndJSONSaysSo() async throws {
        // No byte for longer than --idle-timeout after some text: the same resumption.
        let server = try LoopbackServer { _, index in
            index == 0 ? Self.start(["Counting: one,"]) + [.stall(5)] : Self.whole([" two, three."])
        }
        defer { server.stop() }
        let (chat, options) = try Self.chat(for: server, model: "claude-3-7-sonnet-latest")
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(options + ["--idle-timeout", "1", "--json", "count"])
        #expect(result.status == 0, "\(result.stderr)")
        let events = try result.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let types = events.compactMap { $0["type"] as? String }
        #expect(types.first == "start" && types.last == "done", "\(types)")
        let resume = try #require(events.first { $0["type"] as? String == "resume" })
        #expect(resume["kind"] as? String == "idle_timeout")
        let deltas = events.filter { $0["type"] as? String == "delta" }.compactMap { $0["text"] as? String }
        #expect(deltas.joined() == "Counting: one, two, three.")
        #expect(server.requests.count == 2)
        #expect(Self.text(try #require(try Self.messages(server.requests[1]).last)) == "Counting: one,")
    }

    @Test func aModelTheTableSaysRefusesAPrefillIsNotAskedAndTheLineSaysWhereItBroke() async throws {
        let server = try LoopbackServer { _, _ in Self.start(["Partial answer"]) + [.close] }
        defer { server.stop() }
        let (chat, options) = try Self.chat(for: server, model: "claude-sonnet-4-6")
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(options + ["question"])
        #expect(result.status == 1)
        #expect(result.stdout == "Partial answer\n")
        #expect(
            result.stderr.hasPrefix("chat: error: the answer broke off after 14 characters: the answer was cut off"),
            "\(result.stderr)")
        #expect(result.stderr.hasSuffix("(the text shown is kept; chat -c, then /retry, asks again)\n"))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
        #expect(server.requests.count == 1)
    }

    @Test func aModelThatAnswersThePrefillsFourHundredIsNotAskedForOneAgainThisRun() async throws {
        let refusal = ServerStep.json(
            status: 400,
            #"{"type":"error","error":{"type":"invalid_request_error","message":"This model does not support assistant "#
                + #"message prefill. The conversation must end with a user message."},"request_id":"req_1"}"#)
        let server = try LoopbackServer { request, index in
            // A continuation (the last message the assistant's) is refused; a question is answered
            // in part, then the stream breaks.
            let last = (try? Self.messages(request))?.last
            return last?["role"] as? String == "assistant" ? refusal : Self.start(["Part \(index)"]) + [.close]
        }
        defer { server.stop() }
        let (chat, options) = try Self.chat(for: server, model: "claude-test-unknown")
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        // A REPL behind a pipe: two questions, each answer broken.
        let result = try await chat.run(options + ["--render", "never", "-i"], input: "first\nsecond\n")
        #expect(result.stdout.contains("Part 0"), "\(result.stdout)")
        #expect(result.stdout.contains("Part 2"), "\(result.stdout)")
        // The first break was tried once (and refused); the second not at all.
        #expect(server.requests.count == 3)
        let continuation = try Self.messages(server.requests[1])
        #expect(Self.text(try #require(continuation.last)) == "Part 0")
        #expect(result.stderr.contains("the answer broke off after 6 characters"), "\(result.stderr)")
        #expect(result.stderr.contains("(the partial answer is kept; /retry asks again)"), "\(result.stderr)")
        #expect(!result.stderr.contains("prefill"), "\(result.stderr)")
    }

    @Test func anOpenAIStreamThatBreaksKeepsItsTextAndSaysWhereItBroke() async throws {
        let server = try LoopbackServer { _, _ in
            [
                .head(status: 200, headers: [("Content-Type", "text/event-stream")], chunked: true),
                .text("data: \(ServerStep.chatChunk("Half an ans"))\n\n"),
                .close,
            ]
        }
        defer { server.stop() }
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(["--base-url", server.baseURL, "question"])
        #expect(result.status == 1)
        #expect(result.stdout == "Half an ans\n")
        #expect(
            result.stderr.hasPrefix("chat: error: the answer broke off after 11 characters: the answer was cut off"),
            "\(result.stderr)")
        #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(result.stderr)")
        #expect(server.requests.count == 1)
        // The text shown is stored, interrupted: /retry (after chat -c) asks again.
        let listed = try await chat.run(["--list"])
        let id = String(
            try #require(listed.stdout.split(separator: "\n").first { $0.contains("question") }).prefix { $0 != " " })
        let shown = try await chat.run(["--show", id])
        #expect(shown.stdout.contains("assistant: (interrupted)\nHalf an ans\n"), "\(shown.stdout)")
    }
}
