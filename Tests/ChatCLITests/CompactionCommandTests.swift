import ChatTestSupport
import Foundation
import Synchronization
import Testing

/// Conversations longer than the context window, through the built `chat` against a scripted
/// server: `/compact` and the automatic compaction (what each request carries), the window
/// from the config and from the server's own `/props` (llama.cpp's), a summary request the
/// server refuses for its length sent again in pieces, `--show` and `-c` after a compaction,
/// and the context-length error's line.
@Suite struct CompactionCommandTests {
    /// A server that answers a summary request with `SUMMARY n` (n counting summary requests)
    /// and any other with `Answer to` and the question's first word; `refuse` says which summary
    /// requests to refuse as too long (400, OpenAI's words); `window` is what `/props` says.
    static func server(window: Int? = nil, refuse: @escaping @Sendable ([String]) -> Bool = { _ in false }) throws
        -> LoopbackServer
    {
        let summaries = Mutex(0)
        return try LoopbackServer { request, _ in
            if request.method == "GET" {
                if request.path == "/props", let window {
                    return ServerStep.json(status: 200, #"{"default_generation_settings":{"n_ctx":\#(window)}}"#)
                }
                if request.path == "/v1/models" {
                    return ServerStep.json(status: 200, #"{"object":"list","data":[{"id":"house"}]}"#)
                }
                return ServerStep.json(status: 404, #"{"error":{"message":"not found"}}"#)
            }
            let messages = Self.messages(request)
            let last = messages.last?["content"] as? String ?? ""
            if last.hasPrefix("Summarise our conversation") {
                if refuse(Self.shape(request)) {
                    return ServerStep.json(
                        status: 400,
                        #"{"error":{"message":"This model's maximum context length is 100 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}"#
                    )
                }
                let n = summaries.withLock {
                    $0 += 1
                    return $0
                }
                return ServerStep.sse([ServerStep.chatChunk("SUMMARY \(n)"), ServerStep.finishChunk()])
            }
            let word = last.split(separator: " ").first.map(String.init) ?? ""
            return ServerStep.sse([ServerStep.chatChunk("Answer to \(word)"), ServerStep.finishChunk()])
        }
    }

    static func messages(_ request: RecordedRequest) -> [[String: Any]] {
        let body = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]
        return body?["messages"] as? [[String: Any]] ?? []
    }

    /// Each message of a chat request as `role: first word` (the summary `role: [Summary`).
    static func shape(_ request: RecordedRequest) -> [String] {
        messages(request).map { message in
            let text = message["content"] as? String ?? ""
            return "\(message["role"] as? String ?? "?"): \(text.split(separator: " ").first ?? "")"
        }
    }

    static func chatRequests(_ server: LoopbackServer) -> [RecordedRequest] {
        server.requests.filter { $0.method == "POST" }
    }

    @Test func compactSummarisesWhatWasSaidAndLaterRequestsCarryTheSummary() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(
            ["--base-url", server.baseURL, "-m", "house", "-i"],
            input: "alpha one\nbeta two\n/compact keep the Greek letters\n/compact\ngamma three\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Answer to alpha\nAnswer to beta\nAnswer to gamma\n")
        #expect(result.stderr.contains("summarising 4 messages…\n4 messages summarised in about "), "\(result.stderr)")
        #expect(result.stderr.contains("nothing to compact: there is no answer since the last summary"))
        let requests = Self.chatRequests(server)
        #expect(requests.count == 4)
        // The summary request: the conversation, then what is asked, with the instructions.
        #expect(
            Self.shape(requests[2]) == [
                "user: alpha", "assistant: Answer", "user: beta", "assistant: Answer", "user: Summarise",
            ])
        let ask = Self.messages(requests[2]).last?["content"] as? String ?? ""
        #expect(ask.hasSuffix("In particular: keep the Greek letters"))
        // After it: the summary, said to be one, and the model's word, in place of the turns.
        #expect(Self.shape(requests[3]) == ["user: [Summary", "assistant: Understood.", "user: gamma"])
        let summary = Self.messages(requests[3]).first?["content"] as? String ?? ""
        #expect(summary.hasPrefix("[Summary of the earlier part of this conversation"))
        #expect(summary.hasSuffix("\n\nSUMMARY 1"))

        // The history keeps every message, and where the summary applies.
        let list = try await chat.run(["--list"])
        let id = String(list.stdout.prefix(8))
        let shown = try await chat.run(["--show", id])
        #expect(
            shown.stdout.contains(
                "Answer to beta\n\nsummary: (compacted: requests after this point carry this in place of the 4 "
                    + "messages above)\nSUMMARY 1\n\nyou:\ngamma three\n"), "\(shown.stdout)")
        // Continued, the conversation goes on from the summary.
        let continued = try await chat.run(["--base-url", server.baseURL, "-m", "house", "-c", "delta four"])
        #expect(continued.stdout == "Answer to delta\n")
        #expect(
            Self.shape(Self.chatRequests(server).last!) == [
                "user: [Summary", "assistant: Understood.", "user: gamma", "assistant: Answer", "user: delta",
            ])
    }

    @Test func nearTheConfiguredWindowTheOldestTurnsAreSummarisedWithANote() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        // Each question about 105 tokens by chat's estimate (four bytes a token, four a
        // message), each answer 8; a window of 400: the third request (about 330) passes 80 %
        // of it, and so does the fifth.
        let padding = String(repeating: "x", count: 400)
        let input = ["one", "two", "three", "four", "five"].map { "\($0) \(padding)\n" }.joined()
        let config = try chat.writeConfig(#"{"max_context_tokens": 400}"#)
        let result = try await chat.run(
            ["--config", config, "--base-url", server.baseURL, "-m", "house", "-i"], input: input)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Answer to one\nAnswer to two\nAnswer to three\nAnswer to four\nAnswer to five\n")
        let requests = Self.chatRequests(server).map(Self.shape)
        #expect(requests.count == 7, "\(requests)")
        // The third question's request: first the summary of the two exchanges before it (as
        // many as it takes for the rest to fit in half the window), then the question.
        #expect(
            requests[2] == [
                "user: one", "assistant: Answer", "user: two", "assistant: Answer", "user: Summarise",
            ])
        #expect(requests[3] == ["user: [Summary", "assistant: Understood.", "user: three"])
        #expect(
            requests[4] == [
                "user: [Summary", "assistant: Understood.", "user: three", "assistant: Answer", "user: four",
            ])
        // The second compaction summarises the first summary with the exchanges after it.
        #expect(
            requests[5] == [
                "user: [Summary", "assistant: Understood.", "user: three", "assistant: Answer", "user: four",
                "assistant: Answer", "user: Summarise",
            ])
        #expect(requests[6] == ["user: [Summary", "assistant: Understood.", "user: five"])
        let note =
            "chat: note: the conversation neared the model's context window (400 tokens): 4 messages from its start "
            + "were summarised, and requests now carry the summary in their place (the history keeps them all)"
        #expect(result.stderr.components(separatedBy: "\n").filter { $0.contains("neared") } == [note, note])
    }

    @Test func autoCompactFalseLeavesOlderTurnsOutAsBefore() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let config = try chat.writeConfig(#"{"max_context_tokens": 300, "auto_compact": false}"#)
        let padding = String(repeating: "x", count: 380)
        let input = ["one", "two", "three"].map { "\($0) \(padding)\n" }.joined()
        let result = try await chat.run(
            ["--config", config, "--base-url", server.baseURL, "-m", "house", "-i"], input: input)
        #expect(result.status == 0, "\(result.stderr)")
        let requests = Self.chatRequests(server).map(Self.shape)
        #expect(requests.count == 3)
        #expect(requests[2].first == "user: two", "\(requests[2])")
        #expect(result.stderr.contains("older messages were left out of the request to fit max_context_tokens"))
    }

    @Test func theServersOwnWindowIsAskedOnceWhenTheConversationGetsLong() async throws {
        let server = try Self.server(window: 2000)
        defer { server.stop() }
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        // About 900 tokens a question: the second request passes 80 % of llama.cpp's 2,000.
        let padding = String(repeating: "x", count: 3600)
        let input = ["one", "two", "three"].map { "\($0) \(padding)\n" }.joined()
        let result = try await chat.run(["--base-url", server.baseURL, "-m", "house", "-i"], input: input)
        #expect(result.status == 0, "\(result.stderr)")
        let gets = server.requests.filter { $0.method == "GET" }.map(\.path)
        // The first request is short: nothing asked; then the model list (no window there)
        // and /props at the server's root, side by side, once for the run.
        #expect(gets.sorted() == ["/props", "/v1/models"])
        #expect(server.requests.first?.method == "POST")
        #expect(result.stderr.contains("context window (2000 tokens)"), "\(result.stderr)")
        let requests = Self.chatRequests(server).map(Self.shape)
        #expect(requests[1] == ["user: one", "assistant: Answer", "user: Summarise"])
        #expect(requests[2] == ["user: [Summary", "assistant: Understood.", "user: two"])
    }

    @Test func aSummaryTooLongForTheServerIsMadeInPieces() async throws {
        // Summary requests with more than two questions in them are refused as too long.
        let server = try Self.server { shape in shape.filter { $0.hasPrefix("user: question-") }.count > 2 }
        defer { server.stop() }
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let input = (1...4).map { "question-\($0)\n" }.joined() + "/compact\nafter\n"
        let result = try await chat.run(["--base-url", server.baseURL, "-m", "house", "-i"], input: input)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("8 messages summarised"), "\(result.stderr)")
        let requests = Self.chatRequests(server)
        let summaries = requests.filter {
            (Self.messages($0).last?["content"] as? String ?? "").hasPrefix("Summarise")
        }
        // Refused whole; then the first half, then the second with the first half's summary.
        #expect(summaries.count == 3)
        #expect(Self.shape(summaries[1]).filter { $0.hasPrefix("user: question") }.count == 2)
        #expect(Self.shape(summaries[2]).prefix(2) == ["user: [Summary", "assistant: Understood."])
        #expect((Self.messages(summaries[2]).first?["content"] as? String ?? "").hasSuffix("SUMMARY 1"))
        #expect(Self.shape(requests.last!) == ["user: [Summary", "assistant: Understood.", "user: after"])
        #expect((Self.messages(requests.last!).first?["content"] as? String ?? "").hasSuffix("SUMMARY 2"))
    }

    @Test func aContextLengthErrorNamesCompact() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.json(
                status: 400,
                #"{"error":{"message":"This model's maximum context length is 8192 tokens.","code":"context_length_exceeded"}}"#
            )
        }
        defer { server.stop() }
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(["--base-url", server.baseURL, "-m", "house", "hi"])
        #expect(result.status != 0)
        #expect(
            result.stderr
                == "chat: error: 400 bad request: This model's maximum context length is 8192 tokens. (the "
                + "conversation is longer than the model's context window: /compact in the REPL summarises it; "
                + "auto_compact does so by itself where the window is known, set it with max_context_tokens)\n")
    }
}
