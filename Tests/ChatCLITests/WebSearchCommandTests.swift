import ChatTestSupport
import Foundation
import Testing

/// `--web` through the built `chat` against loopback servers that speak Anthropic's and the
/// Responses API's web search streams: the tool each is sent, the query shown while the server
/// searches, the cited sources listed after the answer (each once, numbered, made safe), `--json`'s
/// `search` and `citation` events, the searches counted in the usage and the cost, the search sent
/// back as the provider needs it in the next turn (and left out without `--web`), `--schema` and
/// `--code` keeping stdout the answer alone; and the refusal on the Chat Completions wire.
@Suite struct WebSearchCommandTests {
    // MARK: Anthropic

    /// A Messages stream with one search (`query` in two `input_json_delta`s), its results
    /// (encrypted), and text in three blocks, two cited: the first source twice, the second with
    /// an escape sequence and a line break in its title.
    static let anthropicEvents: [String] = [
        #"{"type":"message_start","message":{"model":"claude-haiku-4-5","content":[],"usage":{"input_tokens":100,"output_tokens":1}}}"#,
        #"{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srvtoolu_01","name":"web_search","input":{}}}"#,
        #"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"query\": \"weather"}}"#,
        #"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":" today\"}"}}"#,
        #"{"type":"content_block_stop","index":0}"#,
        #"{"type":"content_block_start","index":1,"content_block":{"type":"web_search_tool_result","tool_use_id":"srvtoolu_01","content":[{"type":"web_search_result","title":"Weather Today","url":"https://weather.example/today","encrypted_content":"EqAbc1","page_age":"1 day ago"},{"type":"web_search_result","title":"Forecast","url":"https://forecast.example/","encrypted_content":"EqDef2","page_age":null}]}}"#,
        #"{"type":"content_block_stop","index":1}"#,
        #"{"type":"content_block_start","index":2,"content_block":{"type":"text","text":""}}"#,
        #"{"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":"Based on the search, "}}"#,
        #"{"type":"content_block_stop","index":2}"#,
        #"{"type":"content_block_start","index":3,"content_block":{"citations":[],"type":"text","text":""}}"#,
        #"{"type":"content_block_delta","index":3,"delta":{"type":"citations_delta","citation":{"type":"web_search_result_location","cited_text":"Sunny","url":"https://weather.example/today","title":"Weather Today","encrypted_index":"Eo1"}}}"#,
        #"{"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":"it is sunny"}}"#,
        #"{"type":"content_block_stop","index":3}"#,
        #"{"type":"content_block_start","index":4,"content_block":{"citations":[],"type":"text","text":""}}"#,
        #"{"type":"content_block_delta","index":4,"delta":{"type":"citations_delta","citation":{"type":"web_search_result_location","cited_text":"Warm","url":"https://forecast.example/","title":"Fore\u001b[31mcast\nnow","encrypted_index":"Eo2"}}}"#,
        #"{"type":"content_block_delta","index":4,"delta":{"type":"citations_delta","citation":{"type":"web_search_result_location","cited_text":"Sunny","url":"https://weather.example/today","title":"Weather Today","encrypted_index":"Eo3"}}}"#,
        #"{"type":"content_block_delta","index":4,"delta":{"type":"text_delta","text":" and warm tomorrow."}}"#,
        #"{"type":"content_block_stop","index":4}"#,
        #"{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":20,"server_tool_use":{"web_search_requests":1}}}"#,
        #"{"type":"message_stop"}"#,
    ]

    static let answer = "Based on the search, it is sunny and warm tomorrow."
    static let sources =
        "[1] Weather Today — https://weather.example/today\n[2] Forecast now — https://forecast.example/\n"

    static func anthropicStream(_ events: [String] = anthropicEvents) -> [ServerStep] {
        [.head(status: 200, headers: [("Content-Type", "text/event-stream")], chunked: true)]
            + events.map { event in
                let type = (event.split(separator: "\"")[3])
                return ServerStep.text("event: \(type)\ndata: \(event)\n\n")
            } + [.end]
    }

    /// A plain answer, for a next turn.
    static let anthropicPlain: [String] = [
        #"{"type":"message_start","message":{"model":"claude-haiku-4-5","content":[],"usage":{"input_tokens":5,"output_tokens":1}}}"#,
        #"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#,
        #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Yes."}}"#,
        #"{"type":"content_block_stop","index":0}"#,
        #"{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}"#,
        #"{"type":"message_stop"}"#,
    ]

    /// `chat` with a `claude` profile for `server`.
    static func claude(_ server: LoopbackServer) throws -> (ChatBinary, [String]) {
        let chat = ChatBinary(environment: ["ANTHROPIC_API_KEY": "sk-ant-secret", "OPENAI_API_KEY": "sk-openai-secret"])
        let path = try chat.writeConfig(
            #"{"profiles": {"claude": {"provider": "anthropic", "base_url": "\#(server.baseURL)"}}}"#)
        return (chat, ["--config", path, "--profile", "claude"])
    }

    static func body(_ request: RecordedRequest) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
    }

    @Test func anthropicSearchesShowsTheQueryAndListsTheSourcesAfterTheAnswer() async throws {
        let server = try LoopbackServer { _, index in
            index == 0 ? Self.anthropicStream() : Self.anthropicStream(Self.anthropicPlain)
        }
        defer { server.stop() }
        let (chat, options) = try Self.claude(server)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(options + ["--web", "weather?"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == Self.answer + "\n\n" + Self.sources)
        #expect(result.stderr == "search: weather today\n")
        let first = try server.request(0)
        #expect(
            first.bodyText.contains(#""tools":[{"max_uses":5,"name":"web_search","type":"web_search_20250305"}]"#),
            "\(first.bodyText)")

        // The next turn sends the search back as it came: the call, its encrypted results, the text
        // in its blocks (their citations: WebTurnsCommandTests).
        let next = try await chat.run(options + ["--web", "-c", "sure?"])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stdout == "Yes.\n")
        let messages = try #require(try Self.body(try server.request(1))["messages"] as? [[String: Any]])
        #expect(messages.count == 3)
        let blocks = try #require(messages[1]["content"] as? [[String: Any]])
        #expect(
            blocks.map { $0["type"] as? String } == [
                "server_tool_use", "web_search_tool_result", "text", "text", "text",
            ])
        #expect(blocks[0]["id"] as? String == "srvtoolu_01")
        #expect(blocks[0]["name"] as? String == "web_search")
        #expect((blocks[0]["input"] as? [String: Any])?["query"] as? String == "weather today")
        #expect(blocks[1]["tool_use_id"] as? String == "srvtoolu_01")
        let results = try #require(blocks[1]["content"] as? [[String: Any]])
        #expect(results.map { $0["encrypted_content"] as? String } == ["EqAbc1", "EqDef2"])
        #expect(results.first?["page_age"] as? String == "1 day ago")
        #expect(blocks[2...].map { $0["text"] as? String ?? "" }.joined() == Self.answer)
    }

    @Test func withoutWebTheNextTurnLeavesTheSearchOut() async throws {
        let server = try LoopbackServer { _, index in
            index == 0 ? Self.anthropicStream() : Self.anthropicStream(Self.anthropicPlain)
        }
        defer { server.stop() }
        let (chat, options) = try Self.claude(server)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        #expect(try await chat.run(options + ["--web", "weather?"]).status == 0)
        let next = try await chat.run(options + ["-c", "sure?"])
        #expect(next.status == 0, "\(next.stderr)")
        let body = try Self.body(try server.request(1))
        #expect(body["tools"] == nil)
        let messages = try #require(body["messages"] as? [[String: Any]])
        let blocks = try #require(messages[1]["content"] as? [[String: Any]])
        #expect(blocks.map { $0["type"] as? String } == ["text"])
    }

    @Test func theMaxUsesSettingIsSent() async throws {
        let server = try LoopbackServer { _, _ in Self.anthropicStream(Self.anthropicPlain) }
        defer { server.stop() }
        let chat = ChatBinary(environment: ["ANTHROPIC_API_KEY": "sk-ant-secret"])
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let path = try chat.writeConfig(
            #"{"profiles": {"claude": {"provider": "anthropic", "base_url": "\#(server.baseURL)", "web_search": true, "web_search_max_uses": 2}}}"#
        )
        let result = try await chat.run(["--config", path, "--profile", "claude", "hi"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try server.request(0).bodyText.contains(
                #""tools":[{"max_uses":2,"name":"web_search","type":"web_search_20250305"}]"#))
    }

    @Test func jsonGivesSearchAndCitationEventsAndTheSearchesCost() async throws {
        let server = try LoopbackServer { _, _ in Self.anthropicStream() }
        defer { server.stop() }
        let (chat, options) = try Self.claude(server)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(options + ["--web", "--json", "weather?"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        let events = try result.stdout.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let searches = events.filter { $0["type"] as? String == "search" }
        #expect(searches.count == 1)
        #expect(searches.first?["query"] as? String == "weather today")
        let citations = events.filter { $0["type"] as? String == "citation" }
        #expect(citations.map { $0["n"] as? Int } == [1, 2])
        #expect(
            citations.map { $0["url"] as? String } == ["https://weather.example/today", "https://forecast.example/"])
        #expect(citations.first?["title"] as? String == "Weather Today")
        let text = events.filter { $0["type"] as? String == "delta" }.compactMap { $0["text"] as? String }.joined()
        #expect(text == Self.answer)
        let usage = try #require(events.first { $0["type"] as? String == "usage" })
        #expect(usage["web_searches"] as? Int == 1)
        // claude-haiku-4-5: $1 and $5 a million tokens, $10 a thousand searches.
        #expect(abs((usage["cost_usd"] as? Double ?? 0) - 0.0102) < 1e-12, "\(usage)")
    }

    @Test func codeKeepsStdoutTheCodeAndListsTheSourcesOnStderr() async throws {
        var events = Self.anthropicEvents
        let index = try #require(events.firstIndex { $0.contains("Based on the search") })
        events[index] =
            #"{"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":"```sh\necho hi\n```\n"}}"#
        let edited = events
        let server = try LoopbackServer { _, _ in Self.anthropicStream(edited) }
        defer { server.stop() }
        let (chat, options) = try Self.claude(server)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(options + ["--web", "--code", "weather?"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "echo hi\n")
        #expect(result.stderr == "search: weather today\n\n" + Self.sources)
    }

    @Test func slashWebTurnsTheSearchOnAndOffInTheREPL() async throws {
        let server = try LoopbackServer { _, index in
            index == 1 ? Self.anthropicStream() : Self.anthropicStream(Self.anthropicPlain)
        }
        defer { server.stop() }
        let (chat, options) = try Self.claude(server)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(
            options + ["--render", "never", "-i"],
            input: "/web\nfirst\n/web on\nweather?\n/web off\nthird\n/web maybe\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.requests.count == 3)
        let tools = try (0..<3).map { try Self.body(try server.request($0))["tools"] as? [[String: Any]] }
        #expect(tools[0] == nil)
        #expect(tools[1]?.first?["type"] as? String == "web_search_20250305")
        #expect(tools[2] == nil)
        #expect(result.stdout.contains(Self.answer + "\n\n" + Self.sources), "\(result.stdout)")
        #expect(result.stderr.contains("web search is off (/web on or off)"), "\(result.stderr)")
        #expect(result.stderr.contains("search: weather today\n"))
        #expect(result.stderr.contains("/web takes on or off, not \"maybe\""))
    }

    @Test func slashWebOnTheChatCompletionsWireSaysWhichProvidersSearch() async throws {
        let server = try LoopbackServer { _, _ in ServerStep.sse([ServerStep.chatChunk("Hi.")]) }
        defer { server.stop() }
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(["--base-url", server.baseURL, "-i"], input: "/web on\nhello\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "chat offers no web search on the openai provider (Chat Completions has no search tool of its own); "
                    + "use the anthropic or openai-responses provider"), "\(result.stderr)")
        #expect(server.requests.count == 1)
        #expect(try Self.body(try server.request(0))["tools"] == nil)
    }

    @Test func aWholeAnswerCarriesTheSameSearchSourcesAndCount() async throws {
        let message = #"""
            {"type":"message","role":"assistant","model":"claude-haiku-4-5","stop_reason":"end_turn","content":[
            {"type":"server_tool_use","id":"srvtoolu_02","name":"web_search","input":{"query":"tides"}},
            {"type":"web_search_tool_result","tool_use_id":"srvtoolu_02","content":[{"type":"web_search_result","title":"Tides","url":"https://tides.example/","encrypted_content":"EqT"}]},
            {"type":"text","text":"High at noon.","citations":[{"type":"web_search_result_location","cited_text":"noon","url":"https://tides.example/","title":"Tides","encrypted_index":"Eo"}]}],
            "usage":{"input_tokens":100,"output_tokens":20,"server_tool_use":{"web_search_requests":2}}}
            """#
        let server = try LoopbackServer { _, _ in ServerStep.json(status: 200, message) }
        defer { server.stop() }
        let (chat, options) = try Self.claude(server)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(options + ["--web", "--no-stream", "--json", "tides?"])
        #expect(result.status == 0, "\(result.stderr)")
        let events = try result.stdout.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(events.filter { $0["type"] as? String == "search" }.map { $0["query"] as? String } == ["tides"])
        #expect(
            events.filter { $0["type"] as? String == "citation" }.map { $0["url"] as? String } == [
                "https://tides.example/"
            ])
        let usage = try #require(events.first { $0["type"] as? String == "usage" })
        #expect(usage["web_searches"] as? Int == 2)
        #expect(abs((usage["cost_usd"] as? Double ?? 0) - 0.0202) < 1e-12, "\(usage)")
    }

    // MARK: Responses

    static let responsesEvents: [String] = [
        #"{"type":"response.created","response":{"id":"resp_1","status":"in_progress","output":[]}}"#,
        #"{"type":"response.output_item.added","output_index":0,"item":{"id":"ws_1","type":"web_search_call","status":"in_progress"}}"#,
        #"{"type":"response.web_search_call.searching","output_index":0,"item_id":"ws_1"}"#,
        #"{"type":"response.output_item.done","output_index":0,"item":{"id":"ws_1","type":"web_search_call","status":"completed","action":{"type":"search","query":"weather today"}}}"#,
        #"{"type":"response.output_item.added","output_index":1,"item":{"id":"msg_1","type":"message","role":"assistant","content":[]}}"#,
        #"{"type":"response.output_text.delta","item_id":"msg_1","output_index":1,"content_index":0,"delta":"It is sunny."}"#,
        #"{"type":"response.output_text.annotation.added","item_id":"msg_1","output_index":1,"content_index":0,"annotation_index":0,"annotation":{"type":"url_citation","url":"https://weather.example/today","title":"Weather Today","start_index":0,"end_index":12}}"#,
        #"{"type":"response.output_item.done","output_index":1,"item":{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"output_text","text":"It is sunny.","annotations":[{"type":"url_citation","url":"https://weather.example/today","title":"Weather Today","start_index":0,"end_index":12}]}]}}"#,
        #"{"type":"response.completed","response":{"id":"resp_1","status":"completed","model":"gpt-5-mini","output":[],"usage":{"input_tokens":100,"output_tokens":20,"total_tokens":120}}}"#,
    ]

    static let responsesPlain: [String] = [
        #"{"type":"response.output_text.delta","item_id":"msg_2","output_index":0,"content_index":0,"delta":"Yes."}"#,
        #"{"type":"response.completed","response":{"id":"resp_2","status":"completed","model":"gpt-5-mini","output":[],"usage":{"input_tokens":5,"output_tokens":2,"total_tokens":7}}}"#,
    ]

    static func responses(_ server: LoopbackServer) throws -> (ChatBinary, [String]) {
        let chat = ChatBinary(environment: ["OPENAI_API_KEY": "sk-openai-secret"])
        let path = try chat.writeConfig(
            #"{"profiles": {"gpt": {"provider": "openai-responses", "base_url": "\#(server.baseURL)", "model": "gpt-5-mini"}}}"#
        )
        return (chat, ["--config", path, "--profile", "gpt"])
    }

    @Test func responsesSearchesShowsTheQueryAndListsTheSourcesAfterTheAnswer() async throws {
        let server = try LoopbackServer { _, index in
            ServerStep.sse(index == 0 ? Self.responsesEvents : Self.responsesPlain, done: false)
        }
        defer { server.stop() }
        let (chat, options) = try Self.responses(server)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(options + ["--web", "weather?"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "It is sunny.\n\n[1] Weather Today — https://weather.example/today\n")
        #expect(result.stderr == "search: weather today\n")
        let first = try server.request(0)
        #expect(first.path == "/v1/responses")
        let tools = try #require(try Self.body(first)["tools"] as? [[String: Any]])
        #expect(tools.count == 1)
        #expect(tools.first?.keys.sorted() == ["type"])
        #expect(tools.first?["type"] as? String == "web_search")

        // The next turn sends the web_search_call item back before the answer's text, without its id.
        let next = try await chat.run(options + ["--web", "-c", "sure?"])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stdout == "Yes.\n")
        let input = try #require(try Self.body(try server.request(1))["input"] as? [[String: Any]])
        let types = input.map { $0["type"] as? String }
        #expect(types == ["message", "web_search_call", "message", "message"], "\(input)")
        let search = input[1]
        #expect(search["id"] == nil)
        #expect(search["status"] as? String == "completed")
        let action = try #require(search["action"] as? [String: Any])
        #expect(action["type"] as? String == "search")
        #expect(action["query"] as? String == "weather today")
    }

    @Test func responsesJSONCountsTheSearchInUsageAndCost() async throws {
        let server = try LoopbackServer { _, _ in ServerStep.sse(Self.responsesEvents, done: false) }
        defer { server.stop() }
        let (chat, options) = try Self.responses(server)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(options + ["--web", "--json", "weather?"])
        #expect(result.status == 0, "\(result.stderr)")
        let events = try result.stdout.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(events.filter { $0["type"] as? String == "search" }.map { $0["query"] as? String } == ["weather today"])
        // Cited twice (the annotation event and the item): one citation event.
        let citations = events.filter { $0["type"] as? String == "citation" }
        #expect(citations.count == 1)
        #expect(citations.first?["n"] as? Int == 1)
        #expect(citations.first?["url"] as? String == "https://weather.example/today")
        let usage = try #require(events.first { $0["type"] as? String == "usage" })
        #expect(usage["web_searches"] as? Int == 1)
        // gpt-5-mini: $0.25 and $2 a million tokens, $10 a thousand searches.
        #expect(abs((usage["cost_usd"] as? Double ?? 0) - 0.010065) < 1e-12, "\(usage)")
    }

    @Test func aSchemaKeepsStdoutTheJSONAndListsTheSourcesOnStderr() async throws {
        var events = Self.responsesEvents
        let index = try #require(events.firstIndex { $0.contains("It is sunny.\"}") })
        events[index] =
            #"{"type":"response.output_text.delta","item_id":"msg_1","output_index":1,"content_index":0,"delta":"{\"sky\":\"sunny\"}"}"#
        let edited = events
        let server = try LoopbackServer { _, _ in ServerStep.sse(edited, done: false) }
        defer { server.stop() }
        let (chat, options) = try Self.responses(server)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(options + ["--web", "--schema", "sky", "weather?"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == #"{"sky":"sunny"}"# + "\n")
        #expect(result.stderr == "search: weather today\n\n[1] Weather Today — https://weather.example/today\n")
    }

    // MARK: Chat Completions

    @Test func theChatCompletionsWireRefusesWebBeforeSendingAnything() async throws {
        let server = try LoopbackServer { _, _ in ServerStep.sse([ServerStep.chatChunk("no")]) }
        defer { server.stop() }
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(["--base-url", server.baseURL, "--web", "weather?"])
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(
            result.stderr
                == "chat: error: web_search (from --web): chat offers no web search on the openai provider (Chat "
                + "Completions has no search tool of its own); use the anthropic or openai-responses provider "
                + "(\"provider\" in the config, or a --profile that sets one)\n")
        #expect(server.requests.isEmpty)
    }
}
