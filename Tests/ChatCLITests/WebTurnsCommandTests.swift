import ChatTestSupport
import Foundation
import Testing

/// Web search answers over more than one turn, through the built `chat` against loopback
/// servers: the cited sources stored with the answer, listed again by `--show` and the Markdown
/// export, carried by the JSON export, and sent back to Anthropic (`encrypted_index` unmodified)
/// while the search is on; a Responses answer's citations stored and shown, its text sent back
/// plain.
@Suite struct WebTurnsCommandTests {
    typealias Web = WebSearchCommandTests

    static func messages(_ request: RecordedRequest) throws -> [[String: Any]] {
        try #require(try Web.body(request)["messages"] as? [[String: Any]])
    }

    /// The id of the one stored conversation.
    static func storedID(_ chat: ChatBinary) async throws -> String {
        let listed = try await chat.run(["--list"])
        return String(try #require(listed.stdout.split(separator: "\n").first).prefix { $0 != " " })
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
