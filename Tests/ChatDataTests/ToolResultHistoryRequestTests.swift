import ChatDomain
import Foundation
import Testing

@testable import ChatHistory
@testable import ChatProviders
@testable import ChatSystem

private typealias F = ToolResultFixtures

/// A conversation whose tool round had images, continued from the history: the history keeps
/// what names each image (never its bytes), so every provider sends the image's note in its place,
/// and the next question after it.
@Suite(.timeLimit(.minutes(1)))
struct ToolResultHistoryRequestTests {
    private let root = NSTemporaryDirectory() + "chat-tool-images-\(UUID().uuidString)"

    /// The round stored and loaded again, with one more question.
    private func continued() async throws -> [ChatMessage] {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let directory = try #require(DataDirectory(environment: ["XDG_DATA_HOME": root, "HOME": "/nonexistent"]))
        let store = try await SQLiteConversationStore.open(in: directory, report: { Issue.record("history: \($0)") })
            .get()
        let messages = F.round(F.twoShots) + [ChatMessage(role: .assistant, content: "A dot and a line.")]
        let stored = try #require(
            await store.begin(Conversation(settings: ChatSettings(model: "m")), storing: messages))
        var loaded = try await store.load(stored.id).get()
        #expect(loaded.messages[2].toolResults.first?.content.count == 3)
        loaded.append(ChatMessage(role: .user, content: "Again?"))
        return loaded.requestMessages
    }

    private let notes =
        #"Two shots.\n[image shots.shoot is no longer available]\n"#
        + #"[image shots.shoot is no longer available]"#

    @Test func chatCompletionsSendsTheNotesAndNoImageMessage() async throws {
        let request = ChatRequest(messages: try await continued(), settings: ChatSettings(model: "m"))
        let text = String(
            decoding: try #require(ChatCompletionRequestDTO(request, includeUsage: false).jsonBytes), as: UTF8.self)
        #expect(
            text.contains(
                #"{"content":"\#(notes)","role":"tool","tool_call_id":"call_1"},"#
                    + #"{"content":"A dot and a line.","role":"assistant"},{"content":"Again?","role":"user"}"#),
            "\(text)")
        #expect(!text.contains("image_url") && !text.contains("Images from the tool results"))
    }

    @Test func anthropicSendsTheNotesAsTextBlocksOfTheToolResult() async throws {
        let request = ChatRequest(
            messages: try await continued(), settings: ChatSettings(model: "claude-test"), tools: [F.tool])
        let dto = try MessagesRequestDTO(request, thinking: nil, cache: false)
        let text = String(decoding: try #require(dto.jsonBytes), as: UTF8.self)
        #expect(
            text.contains(
                #"{"content":[{"content":[{"text":"Two shots.","type":"text"},"#
                    + #"{"text":"[image shots.shoot is no longer available]","type":"text"},"#
                    + #"{"text":"[image shots.shoot is no longer available]","type":"text"}],"#
                    + #""tool_use_id":"call_1","type":"tool_result"}],"role":"user"}"#), "\(text)")
        #expect(!text.contains(#""type":"image""#))
    }

    @Test func responsesSendsTheNotesAsTheOutputText() async throws {
        let request = ChatRequest(
            messages: try await continued(), settings: ChatSettings(model: "gpt-4.1"), tools: [F.tool])
        let dto = try ResponsesRequestDTO(request, includeEncrypted: false, showsReasoning: true)
        let text = String(decoding: try #require(dto.jsonBytes), as: UTF8.self)
        #expect(
            text.contains(#"{"call_id":"call_1","output":"\#(notes)","type":"function_call_output"}"#), "\(text)")
        #expect(!text.contains("input_image"))
    }
}
