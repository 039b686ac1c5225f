import ChatTestSupport
import Foundation
import Testing

/// `--json`: an answer's events, and the listings, as JSON lines on stdout.
@Suite struct JSONOutputTests {
    /// Each line of `text` read as a JSON object (a test failure, not a crash, when one is not).
    private func lines(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
        #expect(text.isEmpty || text.hasSuffix("\n"), "the last line is not ended", sourceLocation: sourceLocation)
        return try text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
            let value = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(value as? [String: Any], "not an object: \(line)", sourceLocation: sourceLocation)
        }
    }

    /// The events' types, a run of deltas as one (how a burst of text is split is the
    /// network's business).
    private func types(_ events: [[String: Any]]) -> [String] {
        var types: [String] = []
        for event in events {
            let type = event["type"] as? String ?? "?"
            if type != "delta" || types.last != "delta" { types.append(type) }
        }
        return types
    }

    private func event(_ type: String, in events: [[String: Any]]) throws -> [String: Any] {
        try #require(events.first { $0["type"] as? String == type }, "no \(type) event")
    }

    private func deltas(_ events: [[String: Any]]) -> String {
        events.filter { $0["type"] as? String == "delta" }.compactMap { $0["text"] as? String }.joined()
    }

    @Test func aPlainAnswerIsStartDeltasUsageDoneAndTheDeltasAreTheStoredAnswer() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.sse(
                ["Hel", "lo, \"wörld\"\n", "\u{1B}[31mred"].map(ServerStep.chatChunk) + [
                    ServerStep.finishChunk("length"), ServerStep.usageChunk(prompt: 5, completion: 3),
                ])
        }
        defer { server.stop() }
        let chat = ChatBinary()
        let result = try await chat.run(["--base-url", server.baseURL, "-m", "m1", "--json", "hi"])
        #expect(result.status == 0)
        // Notes stay on stderr: only the one for an answer cut at the token limit.
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.hasPrefix("chat: note: the answer was cut off at the token limit"))
        let events = try lines(result.stdout)
        #expect(types(events) == ["start", "delta", "usage", "done"])
        let start = try #require(events.first)
        #expect(start["v"] as? Int == 1)
        #expect(start["model"] as? String == "m1")
        #expect(start["provider"] as? String == "openai")
        let id = try #require(start["conversation"] as? String)
        let usage = try event("usage", in: events)
        #expect(usage["prompt_tokens"] as? Int == 5)
        #expect(usage["completion_tokens"] as? Int == 3)
        #expect(usage["cached_tokens"] is NSNull)
        let done = try #require(events.last)
        #expect(done["finish_reason"] as? String == "length")
        #expect(done["message_id"] as? Int != nil)
        // The text is as the server sent it (JSON escapes it); what was stored is what was sent.
        #expect(deltas(events) == "Hello, \"wörld\"\n\u{1B}[31mred")
        let show = try await chat.run(["--show", id])
        #expect(show.stdout == "you:\nhi\n\nassistant:\n" + deltas(events) + "\n\n")
    }

    @Test func reasoningIsAnEventOfItsOwnAndNeverADelta() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.sse([
                #"{"choices":[{"index":0,"delta":{"reasoning_content":"think\nfirst"}}]}"#,
                ServerStep.chatChunk("42"), ServerStep.finishChunk(),
            ])
        }
        defer { server.stop() }
        let result = try await ChatBinary().run(["--base-url", server.baseURL, "--json", "hi"])
        #expect(result.status == 0)
        let events = try lines(result.stdout)
        #expect(types(events) == ["start", "reasoning", "delta", "done"])
        #expect(try event("reasoning", in: events)["text"] as? String == "think\nfirst")
        #expect(deltas(events) == "42")
        #expect(result.stderr == "")
    }

    @Test func withoutJSONNothingChangesByteForByte() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.sse(["Hel", "lo\n\n", "bye"].map(ServerStep.chatChunk) + [ServerStep.finishChunk()])
        }
        defer { server.stop() }
        let chat = ChatBinary()
        let result = try await chat.run(["--base-url", server.baseURL, "hi"])
        #expect(result.status == 0)
        #expect(Array(result.stdout.utf8) == Array("Hello\n\nbye\n".utf8))
        #expect(result.stderr == "")
        // The request is what it was: no response_format, no new member.
        #expect(
            String(decoding: try server.request(0).body, as: UTF8.self)
                == #"{"messages":[{"content":"hi","role":"user"}],"model":"gpt-4o-mini","stream":true,"#
                + #""stream_options":{"include_usage":true}}"#)
        // The listings are as they were, one name a line when piped.
        let roles = try await chat.run(["--list-roles"])
        #expect(roles.stdout == "code\nexplain\nshell\n")
        #expect(!roles.stdout.contains("{"))
        let list = try await chat.run(["--list"])
        #expect(list.stdout.hasSuffix("  1 turn  hi\n"))
        #expect(!list.stdout.contains("{"))
    }

    @Test func aRetriedAnswerHasARetryEventBeforeItsText() async throws {
        let server = try LoopbackServer { _, index in
            guard index > 0 else { return ServerStep.json(status: 503, #"{"error":{"message":"busy now"}}"#) }
            return ServerStep.sse([ServerStep.chatChunk("ok"), ServerStep.finishChunk()])
        }
        defer { server.stop() }
        let result = try await ChatBinary().run(["--base-url", server.baseURL, "--json", "hi"])
        #expect(result.status == 0)
        let events = try lines(result.stdout)
        #expect(types(events) == ["start", "retry", "delta", "done"])
        let retry = try event("retry", in: events)
        #expect(retry["attempt"] as? Int == 1)
        #expect((retry["delay"] as? Double).map { $0 > 0 && $0 <= 1 } == true)
        #expect((retry["reason"] as? String)?.contains("busy now") == true)
        #expect(deltas(events) == "ok")
    }

    @Test func aFailureBeforeAnyTextEndsWithAnErrorLineAndTheSameExitStatus() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.json(status: 400, #"{"error":{"message":"bad \u001b[2Jthing\nhere"}}"#)
        }
        defer { server.stop() }
        let result = try await ChatBinary().run(["--base-url", server.baseURL, "--json", "hi"])
        #expect(result.status == 1)
        let events = try lines(result.stdout)
        #expect(types(events) == ["start", "error"])
        let error = try event("error", in: events)
        #expect(error["kind"] as? String == "bad_request")
        #expect(error["status"] as? Int == 400)
        let message = try #require(error["message"] as? String)
        // The same facts as the line on stderr, the server's text made safe.
        #expect(message == "400 bad request: bad thing here")
        #expect(result.stderr == "chat: error: \(message)\n")
    }

    @Test func aFailureAfterSomeTextKeepsTheTextAndEndsWithAnError() async throws {
        let server = try LoopbackServer { _, _ in
            [
                .head(status: 200, headers: [("Content-Type", "text/event-stream")], chunked: true),
                .text("data: \(ServerStep.chatChunk("first part"))\n\n"), .pause(0.05),
                .raw(Array("64\r\ndata: {\"choices\":[{\"delta\":{\"content\":\"sec".utf8)), .close,
            ]
        }
        defer { server.stop() }
        let chat = ChatBinary()
        let result = try await chat.run(["--base-url", server.baseURL, "--json", "hi"])
        #expect(result.status == 1)
        let events = try lines(result.stdout)
        #expect(types(events) == ["start", "delta", "error"])
        #expect(events.last?["kind"] as? String == "stream_cut")
        #expect(events.last?["status"] is NSNull)
        let id = try #require(events.first?["conversation"] as? String)
        let show = try await chat.run(["--show", id])
        #expect(show.stdout == "you:\nhi\n\nassistant: (interrupted)\n" + deltas(events) + "\n\n")
    }

    @Test func ctrlCEndsTheLinesWithACancelledErrorAndExits130() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.sse((1...1000).map { ServerStep.chatChunk("piece\($0) ") }, pause: 0.05)
        }
        defer { server.stop() }
        let chat = ChatBinary()
        let running = try chat.start(["--base-url", server.baseURL, "--json", "hi"])
        #expect(await running.waitForOutput(containing: "piece2 "))
        running.signal(SIGINT)
        let result = await running.wait(timeout: 15)
        #expect(result.status == 130)
        let events = try lines(result.stdout)
        #expect(types(events).first == "start")
        #expect(types(events).last == "error")
        #expect(events.last?["kind"] as? String == "cancelled")
        #expect(types(events) == ["start", "delta", "error"])
        let id = try #require(events.first?["conversation"] as? String)
        let show = try await chat.run(["--show", id])
        #expect(show.stdout == "you:\nhi\n\nassistant: (interrupted)\n" + deltas(events) + "\n\n")
    }

    @Test func executeWithJSONGivesTheCommandAndNeverRunsIt() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.sse([ServerStep.chatChunk("```sh\ntouch ran\n```"), ServerStep.finishChunk()])
        }
        defer { server.stop() }
        let chat = ChatBinary()
        let result = try await chat.run(["--base-url", server.baseURL, "-x", "--json", "make a file"])
        #expect(result.status == 0)
        let events = try lines(result.stdout)
        #expect(types(events) == ["start", "delta", "command", "done"])
        #expect(try event("command", in: events)["text"] as? String == "touch ran")
        #expect(!FileManager.default.fileExists(atPath: chat.home + "/ran"))
    }

    @Test func jsonGoesOnlyWithAnAnswerOrAListing() async throws {
        let chat = ChatBinary()
        for arguments in [
            ["--json", "-i"], ["--json", "--code", "hi"], ["--json", "--show", "abc"],
            ["-x", "--json", "--history-append", "hi"],
        ] {
            let result = try await chat.run(["--base-url", "http://127.0.0.1:9/v1"] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.hasPrefix("chat: error: "), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("--json"), "\(arguments): \(result.stderr)")
            #expect(result.stdout == "")
        }
        let help = try await chat.run(["--help"])
        #expect(help.stdout.contains("--json"))
    }

    @Test func listingsAreJSONLinesWithIdsTitlesTimesModelsAndTurns() async throws {
        let server = try LoopbackServer { request, _ in
            if request.path.hasSuffix("/models") {
                return ServerStep.json(
                    status: 200, #"{"data":[{"id":"zeta","owned_by":"me"},{"id":"alpha"}],"object":"list"}"#)
            }
            return ServerStep.sse([ServerStep.chatChunk("the answer mentions giraffes"), ServerStep.finishChunk()])
        }
        defer { server.stop() }
        let chat = ChatBinary()
        let before = Date().timeIntervalSince1970.rounded(.down)
        _ = try await chat.run(["--base-url", server.baseURL, "-m", "m1", "first question"])
        _ = try await chat.run(["--base-url", server.baseURL, "-m", "m2", "second question"])

        let list = try lines(try await chat.run(["--list", "--json"]).stdout)
        #expect(list.map { $0["title"] as? String } == ["second question", "first question"])
        #expect(list.map { $0["model"] as? String } == ["m2", "m1"])
        #expect(list.map { $0["turns"] as? Int } == [1, 1])
        #expect(list.allSatisfy { ($0["id"] as? String)?.count == 8 })
        let formatter = ISO8601DateFormatter()
        for entry in list {
            let created = try #require(formatter.date(from: entry["created_at"] as? String ?? ""))
            #expect(created.timeIntervalSince1970 >= before)
            #expect(formatter.date(from: entry["updated_at"] as? String ?? "") != nil)
        }

        let found = try lines(try await chat.run(["--search", "giraffes", "--json"]).stdout)
        #expect(found.count == 2)
        #expect(found.first?["matches"] as? [String] == ["giraffes"])
        #expect((found.first?["snippet"] as? String)?.contains("mentions giraffes") == true)

        let models = try lines(
            try await chat.run(["--base-url", server.baseURL, "-m", "zeta", "--models", "--json"]).stdout)
        #expect(models.map { $0["id"] as? String } == ["alpha", "zeta"])
        #expect(models.map { $0["current"] as? Bool } == [false, true])
        #expect(models.first?["owned_by"] is NSNull)
        #expect(models.last?["owned_by"] as? String == "me")

        let config = try chat.writeConfig(
            #"{"roles": {"terse": {"prompt": "Be terse about {{input}}", "model": "m9", "temperature": 0.5}}}"#)
        let roles = try lines(try await chat.run(["--config", config, "--list-roles", "--json"]).stdout)
        let terse = try #require(roles.first { $0["name"] as? String == "terse" })
        #expect(terse["prompt"] as? String == "Be terse about {{input}}")
        #expect(terse["template"] as? Bool == true)
        #expect(terse["built_in"] as? Bool == false)
        #expect(terse["model"] as? String == "m9")
        #expect((terse["sampling"] as? [String: Any])?["temperature"] as? Double == 0.5)
        #expect(roles.contains { $0["name"] as? String == "shell" && $0["built_in"] as? Bool == true })
    }
}
