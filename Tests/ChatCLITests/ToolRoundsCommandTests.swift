import ChatDomain
import ChatTestSupport
import Foundation
import Testing

@testable import ChatHistory
@testable import ChatSystem

private let call = ToolCall(
    id: "call_1", name: "time__get_current_time", arguments: .object(["timezone": .string("UTC")]))

/// A question answered after a round of one call, as the history keeps it.
private let round = [
    ChatMessage(role: .user, content: "What time is it?"),
    ChatMessage(role: .assistant, parts: [.text("Let me look."), .toolCall(call)]),
    ChatMessage(
        role: .tool, parts: [.toolResult(ToolResult(callID: "call_1", content: [.text("12:00 \u{1B}[31mUTC")]))]),
    ChatMessage(role: .assistant, content: "It is noon."),
]

/// Stores `messages` as a conversation in `chat`'s history; returns its id.
private func stored(_ messages: [ChatMessage], in chat: ChatBinary) async throws -> String {
    let directory = try #require(DataDirectory(environment: chat.environment))
    let store = try await SQLiteConversationStore.open(in: directory, report: { _ in }).get()
    return try #require(await store.begin(Conversation(settings: ChatSettings(model: "m")), storing: messages)?.id)
}

/// The messages of request `index`, as the server got them.
private func messages(_ server: LoopbackServer, _ index: Int) throws -> [[String: Any]] {
    let json = try #require(
        try JSONSerialization.jsonObject(with: Data(try server.request(index).body)) as? [String: Any])
    return json["messages"] as? [[String: Any]] ?? []
}

/// Stored tool rounds end to end: `--show`, `--export` and `--list` show them, `-c` and
/// `--conversation` send them again, a call with no stored result is sent answered as lost.
@Suite(.timeLimit(.minutes(2)))
struct ToolRoundsCommandTests {
    @Test func showExportAndListShowTheRound() async throws {
        let chat = ChatBinary()
        let id = try await stored(round, in: chat)
        let shown = try await chat.run(["--show", id])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(
            shown.stdout
                == "you:\nWhat time is it?\n\nassistant:\nLet me look.\ntool call: server time, tool get_current_time\n"
                + "  arguments: {\"timezone\":\"UTC\"}\n\ntool result: server time, tool get_current_time\n"
                + "12:00 ^[[31mUTC\n\nassistant:\nIt is noon.\n\n")
        let exported = try await chat.run(["--export", id])
        #expect(
            exported.stdout.contains(
                "Tool call: server time, tool get_current_time\n\n```json\n{\"timezone\":\"UTC\"}\n```\n\n"
                    + "## Tool result: server time, tool get_current_time\n\n```text\n12:00 ^[[31mUTC\n```\n"))
        let json = try await chat.run(["--export", id, "--format", "json"])
        #expect(json.stdout.contains(#""type" : "tool_call""#) && json.stdout.contains(#""version" : 2"#))
        #expect(try await chat.run(["--list"]).stdout.contains("1 turn  What time is it?"))
    }

    @Test func continuingSendsTheRoundAgainAndALostResultAsLost() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.sse([ServerStep.chatChunk("Later."), ServerStep.finishChunk()])
        }
        defer { server.stop() }
        let chat = ChatBinary()
        _ = try await stored(round, in: chat)
        let continued = try await chat.run(["--base-url", server.baseURL, "-c", "And now?"])
        #expect(continued.status == 0, "\(continued.stderr)")
        let sent = try messages(server, 0)
        #expect(sent.map { $0["role"] as? String } == ["user", "assistant", "tool", "assistant", "user"])
        let calls = try #require(sent[1]["tool_calls"] as? [[String: Any]])
        #expect(calls.first?["id"] as? String == "call_1")
        #expect((calls.first?["function"] as? [String: Any])?["arguments"] as? String == #"{"timezone":"UTC"}"#)
        #expect(sent[2]["tool_call_id"] as? String == "call_1")
        #expect(sent[2]["content"] as? String == "12:00 \u{1B}[31mUTC")

        // chat stopped between a call and its result.
        let cut = try await stored(Array(round.prefix(2)), in: chat)
        let goneOn = try await chat.run(["--base-url", server.baseURL, "--conversation", cut, "Go on"])
        #expect(goneOn.status == 0, "\(goneOn.stderr)")
        let resent = try messages(server, 1)
        #expect(resent.map { $0["role"] as? String } == ["user", "assistant", "tool", "user"])
        // A failed call on the OpenAI wire: its words begin "Error:" (the tool message has no field for it).
        #expect(resent[2]["content"] as? String == "Error: " + Conversation.lostResultText)
        #expect(resent[2]["tool_call_id"] as? String == "call_1")
    }
}
