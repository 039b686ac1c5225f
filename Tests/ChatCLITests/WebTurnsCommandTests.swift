import ChatTestSupport
import Foundation
import Testing

/// Web search answers over more than one turn, through the built `chat` against loopback
/// servers: a turn Anthropic pauses (`pause_turn`) sent back whole for it to go on, shown and
/// stored as one answer with the usage of every request, and at most `PausedTurn.continuations`
/// times; the cited sources stored with the answer, listed again by `--show` and the Markdown
/// export, carried by the JSON export, and sent back to Anthropic (`encrypted_index` unmodified)
/// while the search is on; a Responses answer's citations stored and shown, its text sent back
/// plain.
@Suite struct WebTurnsCommandTests {
    typealias Web = WebSearchCommandTests

    /// A turn paused with a search asked for and not yet run (its `server_tool_use` alone).
    static let paused: [String] = [
        #"{"type":"message_start","message":{"model":"claude-haiku-4-5","content":[],"usage":{"input_tokens":100,"output_tokens":1}}}"#,
        #"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#,
        #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Let me search. "}}"#,
        #"{"type":"content_block_stop","index":0}"#,
        #"{"type":"content_block_start","index":1,"content_block":{"type":"server_tool_use","id":"srvtoolu_01","name":"web_search","input":{}}}"#,
        #"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"query\": \"weather today\"}"}}"#,
        #"{"type":"content_block_stop","index":1}"#,
        #"{"type":"message_delta","delta":{"stop_reason":"pause_turn"},"usage":{"output_tokens":10}}"#,
        #"{"type":"message_stop"}"#,
    ]

    /// The turn gone on with: the search's results, then the cited answer.
    static let continued: [String] = [
        #"{"type":"message_start","message":{"model":"claude-haiku-4-5","content":[],"usage":{"input_tokens":150,"output_tokens":1}}}"#,
        #"{"type":"content_block_start","index":0,"content_block":{"type":"web_search_tool_result","tool_use_id":"srvtoolu_01","content":[{"type":"web_search_result","title":"Weather Today","url":"https://weather.example/today","encrypted_content":"EqAbc1","page_age":null}]}}"#,
        #"{"type":"content_block_stop","index":0}"#,
        #"{"type":"content_block_start","index":1,"content_block":{"citations":[],"type":"text","text":""}}"#,
        #"{"type":"content_block_delta","index":1,"delta":{"type":"citations_delta","citation":{"type":"web_search_result_location","cited_text":"Sunny all day","url":"https://weather.example/today","title":"Weather Today","encrypted_index":"Eo1+/x=="}}}"#,
        #"{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"It is sunny."}}"#,
        #"{"type":"content_block_stop","index":1}"#,
        #"{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":20,"server_tool_use":{"web_search_requests":1}}}"#,
        #"{"type":"message_stop"}"#,
    ]

    static let answer = "Let me search. It is sunny.\n\n[1] Weather Today — https://weather.example/today\n"

    static func messages(_ request: RecordedRequest) throws -> [[String: Any]] {
        try #require(try Web.body(request)["messages"] as? [[String: Any]])
    }

    /// The id of the one stored conversation.
    static func storedID(_ chat: ChatBinary) async throws -> String {
        let listed = try await chat.run(["--list"])
        return String(try #require(listed.stdout.split(separator: "\n").first).prefix { $0 != " " })
    }

    @Test func aPausedTurnIsSentBackWholeAndTheAnswerGoesOnAsOne() async throws {
        let server = try LoopbackServer { _, index in
            switch index {
            case 0: Web.anthropicStream(Self.paused)
            case 1: Web.anthropicStream(Self.continued)
            default: Web.anthropicStream(Web.anthropicPlain)
            }
        }
        defer { server.stop() }
        let (chat, options) = try Web.claude(server)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(options + ["--web", "weather?"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == Self.answer)
        // No note: the pause is not the answer's end.
        #expect(result.stderr == "search: weather today\n")
        #expect(server.requests.count == 2)

        // The continuation: the same conversation, the search still offered, and the paused
        // answer as it came (its text, and the search it asked for) as the last message.
        let second = try Web.body(try server.request(1))
        let tools = try #require(second["tools"] as? [[String: Any]])
        #expect(tools.map { $0["type"] as? String } == ["web_search_20250305"])
        let messages = try #require(second["messages"] as? [[String: Any]])
        #expect(messages.map { $0["role"] as? String } == ["user", "assistant"])
        let blocks = try #require(messages[1]["content"] as? [[String: Any]])
        #expect(blocks.map { $0["type"] as? String } == ["text", "server_tool_use"])
        #expect(blocks[0]["text"] as? String == "Let me search. ")
        #expect(blocks[1]["id"] as? String == "srvtoolu_01")
        #expect(blocks[1]["name"] as? String == "web_search")
        #expect((blocks[1]["input"] as? [String: Any])?["query"] as? String == "weather today")

        // Stored as one answer of every part, shown again by --show with its source.
        let id = try await Self.storedID(chat)
        let shown = try await chat.run(["--show", id])
        #expect(shown.stdout.hasPrefix("you:\nweather?\n\nassistant:"), "\(shown.stdout)")
        #expect(shown.stdout.hasSuffix("\n" + Self.answer + "\n"), "\(shown.stdout)")
        let exported = try await chat.run(["--export", id, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [String: Any])
        let stored = try #require(object["messages"] as? [[String: Any]])
        #expect(stored.map { $0["role"] as? String } == ["user", "assistant"])
        let parts = try #require(stored[1]["parts"] as? [[String: Any]])
        #expect(
            parts.map { $0["type"] as? String } == [
                "text", "server_tool_use", "web_search_tool_result", "citation", "text",
            ])
        #expect(parts[3]["url"] as? String == "https://weather.example/today")
        #expect((parts[3]["value"] as? [String: Any])?["encrypted_index"] as? String == "Eo1+/x==")

        // The next turn sends the answer's blocks back, the cited text with its citation as it came.
        let next = try await chat.run(options + ["--web", "-c", "sure?"])
        #expect(next.status == 0, "\(next.stderr)")
        let third = try Self.messages(try server.request(2))
        #expect(third.map { $0["role"] as? String } == ["user", "assistant", "user"])
        let answer = try #require(third[1]["content"] as? [[String: Any]])
        #expect(
            answer.map { $0["type"] as? String } == ["text", "server_tool_use", "web_search_tool_result", "text"])
        #expect(answer[0]["citations"] == nil)
        #expect(answer[3]["text"] as? String == "It is sunny.")
        let citations = try #require(answer[3]["citations"] as? [[String: Any]])
        #expect(citations.count == 1)
        #expect(citations.first?.keys.sorted() == ["cited_text", "encrypted_index", "title", "type", "url"])
        #expect(citations.first?["type"] as? String == "web_search_result_location")
        #expect(citations.first?["encrypted_index"] as? String == "Eo1+/x==")
        #expect(citations.first?["cited_text"] as? String == "Sunny all day")
        #expect(citations.first?["title"] as? String == "Weather Today")
        #expect(citations.first?["url"] as? String == "https://weather.example/today")
    }

    @Test func aPausedTurnCountsTheUsageOfEveryRequestOnce() async throws {
        let server = try LoopbackServer { _, index in
            Web.anthropicStream(index == 0 ? Self.paused : Self.continued)
        }
        defer { server.stop() }
        let (chat, options) = try Web.claude(server)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(options + ["--web", "--json", "weather?"])
        #expect(result.status == 0, "\(result.stderr)")
        let events = try result.stdout.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let usages = events.filter { $0["type"] as? String == "usage" }
        #expect(usages.count == 1)
        #expect(usages.first?["prompt_tokens"] as? Int == 250)
        #expect(usages.first?["completion_tokens"] as? Int == 30)
        #expect(usages.first?["web_searches"] as? Int == 1)
        // claude-haiku-4-5: $1 and $5 a million tokens, $10 a thousand searches.
        #expect(abs((usages.first?["cost_usd"] as? Double ?? 0) - 0.0104) < 1e-12, "\(usages)")
        let done = try #require(events.last)
        #expect(done["type"] as? String == "done")
        #expect(done["finish_reason"] as? String == "end_turn", "\(done)")
    }

    @Test func aPausedWholeAnswerIsSentBackToo() async throws {
        let paused = #"""
            {"type":"message","role":"assistant","model":"claude-haiku-4-5","stop_reason":"pause_turn","content":[
            {"type":"server_tool_use","id":"srvtoolu_02","name":"web_search","input":{"query":"tides"}}],
            "usage":{"input_tokens":100,"output_tokens":10}}
            """#
        let continued = #"""
            {"type":"message","role":"assistant","model":"claude-haiku-4-5","stop_reason":"end_turn","content":[
            {"type":"web_search_tool_result","tool_use_id":"srvtoolu_02","content":[{"type":"web_search_result","title":"Tides","url":"https://tides.example/","encrypted_content":"EqT"}]},
            {"type":"text","text":"High at noon.","citations":[{"type":"web_search_result_location","cited_text":"noon","url":"https://tides.example/","title":"Tides","encrypted_index":"Eo"}]}],
            "usage":{"input_tokens":120,"output_tokens":20,"server_tool_use":{"web_search_requests":1}}}
            """#
        let server = try LoopbackServer { _, index in ServerStep.json(status: 200, index == 0 ? paused : continued) }
        defer { server.stop() }
        let (chat, options) = try Web.claude(server)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(options + ["--web", "--no-stream", "tides?"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "High at noon.\n\n[1] Tides — https://tides.example/\n")
        #expect(result.stderr == "search: tides\n")
        let messages = try Self.messages(try server.request(1))
        let blocks = try #require(messages.last?["content"] as? [[String: Any]])
        #expect(messages.last?["role"] as? String == "assistant")
        #expect(blocks.map { $0["type"] as? String } == ["server_tool_use"])
        #expect(blocks.first?["id"] as? String == "srvtoolu_02")
    }

    @Test func aTurnStillPausedAfterFiveContinuationsIsLeftWithANote() async throws {
        let working: [String] = [
            #"{"type":"message_start","message":{"model":"claude-haiku-4-5","content":[],"usage":{"input_tokens":10,"output_tokens":1}}}"#,
            #"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#,
            #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Working. "}}"#,
            #"{"type":"content_block_stop","index":0}"#,
            #"{"type":"message_delta","delta":{"stop_reason":"pause_turn"},"usage":{"output_tokens":5}}"#,
            #"{"type":"message_stop"}"#,
        ]
        let server = try LoopbackServer { _, _ in Web.anthropicStream(working) }
        defer { server.stop() }
        let (chat, options) = try Web.claude(server)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(options + ["--web", "work?"])
        #expect(result.status == 0, "\(result.stderr)")
        // The first request and five continuations; the answer is all of them.
        #expect(server.requests.count == 6)
        #expect(result.stdout == String(repeating: "Working. ", count: 6) + "\n")
        #expect(
            result.stderr
                == "chat: note: the server paused this answer before it was done, and again each of the 5 times "
                + "chat sent it back to go on (stop reason: pause_turn); send a message to go on\n")
        // Each continuation carries the answer so far, its last text without trailing whitespace.
        for index in 1..<6 {
            let messages = try Self.messages(try server.request(index))
            let blocks = try #require(messages.last?["content"] as? [[String: Any]])
            #expect(messages.last?["role"] as? String == "assistant")
            #expect(blocks.count == 1)
            #expect(blocks.first?["text"] as? String == String(String(repeating: "Working. ", count: index).dropLast()))
        }
    }

    @Test func aSearchLeftUnrunByAPauseIsLeftOutOfLaterTurns() async throws {
        // The continuation fails: the stored answer keeps the search it asked for, which has no
        // results; the next turn leaves it out (the API takes none without its results).
        let server = try LoopbackServer { _, index in
            switch index {
            case 0: Web.anthropicStream(Self.paused)
            case 1:
                ServerStep.json(
                    status: 400, #"{"type":"error","error":{"type":"invalid_request_error","message":"no"}}"#)
            default: Web.anthropicStream(Web.anthropicPlain)
            }
        }
        defer { server.stop() }
        let (chat, options) = try Web.claude(server)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let first = try await chat.run(options + ["--web", "weather?"])
        #expect(first.status != 0)
        #expect(first.stdout.hasPrefix("Let me search."), "\(first.stdout)")
        let next = try await chat.run(options + ["--web", "-c", "again?"])
        #expect(next.status == 0, "\(next.stderr)")
        let messages = try Self.messages(try server.request(2))
        #expect(messages.map { $0["role"] as? String } == ["user", "assistant", "user"])
        let blocks = try #require(messages[1]["content"] as? [[String: Any]])
        #expect(blocks.map { $0["type"] as? String } == ["text"])
    }

    // MARK: Citations stored

    @Test func anthropicCitationsAreShownAgainAndSentBackOnlyWithTheSearch() async throws {
        let server = try LoopbackServer { _, index in
            index == 0 ? Web.anthropicStream() : Web.anthropicStream(Web.anthropicPlain)
        }
        defer { server.stop() }
        let (chat, options) = try Web.claude(server)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        #expect(try await chat.run(options + ["--web", "weather?"]).status == 0)
        let id = try await Self.storedID(chat)
        let shown = try await chat.run(["--show", id])
        #expect(shown.stdout.hasSuffix("\n" + Web.answer + "\n\n" + Web.sources + "\n"), "\(shown.stdout)")
        let markdown = try await chat.run(["--export", id])
        #expect(
            markdown.stdout.contains(
                Web.answer + "\n\nSources:\n\n- [1] Weather Today — https://weather.example/today\n"
                    + "- [2] Forecast now — https://forecast.example/\n"), "\(markdown.stdout)")

        // With the search on: the three text blocks as they came, the cited ones with their citations.
        #expect(try await chat.run(options + ["--web", "-c", "sure?"]).status == 0)
        let withSearch = try #require(try Self.messages(try server.request(1))[1]["content"] as? [[String: Any]])
        #expect(
            withSearch.map { $0["type"] as? String } == [
                "server_tool_use", "web_search_tool_result", "text", "text", "text",
            ])
        #expect(
            withSearch.map { $0["text"] as? String } == [
                nil, nil, "Based on the search, ", "it is sunny", " and warm tomorrow.",
            ])
        let indices = withSearch.map { block in
            (block["citations"] as? [[String: Any]])?.map { $0["encrypted_index"] as? String }
        }
        #expect(indices == [nil, nil, nil, ["Eo1"], ["Eo2", "Eo3"]])

        // Without it: the answer's text alone, in one block, no citation.
        #expect(try await chat.run(options + ["-c", "really?"]).status == 0)
        let without = try #require(try Self.messages(try server.request(2))[1]["content"] as? [[String: Any]])
        #expect(without.count == 1)
        #expect(without.first?["text"] as? String == Web.answer)
        #expect(without.first?["citations"] == nil)
    }

    @Test func responsesCitationsAreStoredShownAgainAndSentBackAsPlainText() async throws {
        let server = try LoopbackServer { _, index in
            ServerStep.sse(index == 0 ? Web.responsesEvents : Web.responsesPlain, done: false)
        }
        defer { server.stop() }
        let (chat, options) = try Web.responses(server)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        #expect(try await chat.run(options + ["--web", "weather?"]).status == 0)
        let id = try await Self.storedID(chat)
        let shown = try await chat.run(["--show", id])
        #expect(
            shown.stdout.hasSuffix("\nIt is sunny.\n\n[1] Weather Today — https://weather.example/today\n\n"),
            "\(shown.stdout)")
        // Cited by its annotation event and again in its item: stored once.
        let exported = try await chat.run(["--export", id, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [String: Any])
        let stored = try #require(object["messages"] as? [[String: Any]])
        let parts = try #require(stored.last?["parts"] as? [[String: Any]])
        #expect(parts.map { $0["type"] as? String } == ["web_search_call", "text", "citation"])
        #expect((parts[2]["value"] as? [String: Any])?["type"] as? String == "url_citation")

        #expect(try await chat.run(options + ["--web", "-c", "sure?"]).status == 0)
        let input = try #require(try Web.body(try server.request(1))["input"] as? [[String: Any]])
        #expect(input.map { $0["type"] as? String } == ["message", "web_search_call", "message", "message"])
        let text = try #require(input[2]["content"] as? [[String: Any]])
        #expect(text.count == 1)
        #expect(text.first?["text"] as? String == "It is sunny.")
        #expect(text.first?["annotations"] == nil)
    }
}
