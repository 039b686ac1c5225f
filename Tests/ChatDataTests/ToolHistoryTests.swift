import ChatDomain
import ChatTestSupport
import Foundation
import Synchronization
import Testing

@testable import ChatHistory
@testable import ChatProviders
@testable import ChatSystem

private let settings = ChatSettings(model: "m", stream: true)

/// An answer that says a few words and calls `calls`.
private func calling(_ calls: ToolCall...) -> StubGPTRepository.Script {
    .answer([.text("Let me look."), .toolCalls(calls), .finished(reason: "tool_calls")])
}

private func call(_ id: String, _ arguments: JSONValue = .object(["zone": .string("UTC"), "n": .number(1.5)]))
    -> ToolCall
{
    ToolCall(id: id, name: "time__now", arguments: arguments)
}

private let noon = StubGPTRepository.Script.answer([.text("It is noon."), .finished(reason: "stop")])

/// The body (OpenAI's shape) of the request for the answer to `conversation` as it is.
private func body(_ conversation: Conversation) throws -> String {
    let request = ChatRequest(messages: conversation.requestMessages, settings: conversation.settings)
    return String(
        decoding: try #require(ChatCompletionRequestDTO(request, includeUsage: false).jsonBytes), as: UTF8.self)
}

/// `conversation` with one more question.
private func asking(_ text: String, after conversation: Conversation) -> Conversation {
    var next = conversation
    next.append(ChatMessage(role: .user, content: text))
    return next
}

/// A tool source whose calls never end until cancelled: chat "crashes" while it runs.
private final class HangingToolSource: ToolSource {
    private let called = Mutex(false)
    var wasCalled: Bool { called.withLock { $0 } }

    func tools() async -> [ToolDefinition] { [StubToolSource.clock] }

    func call(_ call: ToolCall, tool: ToolDefinition) async -> ToolResult {
        called.withLock { $0 = true }
        try? await Task.sleep(for: .seconds(30))
        return ToolResult(callID: call.id, content: [.text("too late")], isError: true)
    }
}

/// Tool rounds in the history: stored as each completes, read back and sent again exactly as the
/// conversation in memory would send them, a call whose result was lost answered so, `/retry`
/// and `/undo` taking a round as part of its answer, `/fork` and `/save` keeping rounds, and a
/// database of schema v7 keeping every conversation.
@Suite("Tool rounds in the history", .timeLimit(.minutes(1)))
struct ToolHistoryTests {
    private let root = NSTemporaryDirectory() + "chat-tool-history-\(UUID().uuidString)"

    private var directory: DataDirectory {
        get throws { try #require(DataDirectory(environment: ["XDG_DATA_HOME": root, "HOME": "/nonexistent"])) }
    }

    private func open() async throws -> SQLiteConversationStore {
        try await SQLiteConversationStore.open(in: try directory, report: { Issue.record("history: \($0)") }).get()
    }

    private func useCase(
        _ store: SQLiteConversationStore, _ repository: StubGPTRepository,
        source: any ToolSource = StubToolSource()
    ) -> GPTChatUseCase {
        GPTChatUseCase(repository: repository, recorder: store, tools: ToolLoop(source: source, consent: StubConsent()))
    }

    /// A question answered after one round of two calls (one run, one whose arguments are not
    /// JSON), stored through the use case.
    private func answeredWithARound(_ store: SQLiteConversationStore) async throws -> Conversation {
        let repository = StubGPTRepository([calling(call("a"), call("b", .string("{oops"))), noon])
        var conversation = Conversation(settings: settings)
        let turn = await useCase(store, repository).send("What time is it?", in: &conversation) { _ in }
        #expect(turn.answer?.content == "It is noon.")
        #expect(conversation.messages.map(\.role) == [.user, .assistant, .tool, .assistant])
        return conversation
    }

    private func rowCount(_ conversationID: String) throws -> Int? {
        let db = try SQLiteConnection(path: try directory.file("history.sqlite"))
        return try db.firstRow("SELECT COUNT(*) FROM message WHERE conversation_id = ?", [conversationID]) {
            row throws(StorageError) in try row.column(0, as: Int.self)
        }
    }

    @Test func aRoundIsStoredAndSentAgainByteForByte() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try await open()
        let conversation = try await answeredWithARound(store)
        let id = try #require(conversation.id)
        #expect(conversation.messages.allSatisfy { $0.storageID != nil })

        let loaded = try await store.load(id).get()
        #expect(loaded.messages == conversation.messages)
        let next = asking("And in Paris?", after: loaded)
        #expect(try body(next) == body(asking("And in Paris?", after: conversation)))
        #expect(
            try body(next)
                == #"{"messages":[{"content":"What time is it?","role":"user"},"#
                + #"{"content":"Let me look.","role":"assistant","tool_calls":["#
                + #"{"function":{"arguments":"{\"n\":1.5,\"zone\":\"UTC\"}","name":"time__now"},"id":"a","type":"function"},"#
                + #"{"function":{"arguments":"{oops","name":"time__now"},"id":"b","type":"function"}]},"#
                + #"{"content":"12:00","role":"tool","tool_call_id":"a"},"#
                + #"{"content":"Error: the arguments are not a JSON object; the tool was not run","role":"tool","tool_call_id":"b"},"#
                + #"{"content":"It is noon.","role":"assistant"},{"content":"And in Paris?","role":"user"}],"#
                + #""model":"m","stream":true}"#)
        // One question, one answer: the round is part of it.
        #expect(try await store.list(limit: 1).get().first?.turns == 1)
        #expect(loaded.turnCount == 1)
        // `-c` finds it and carries the round too.
        #expect(try await store.mostRecentlyUsed(answeredOnly: true).get()?.messages == conversation.messages)
    }

    @Test func anAnswerThatCalledToolsKeepsItsThinkingBlocksAndOneWithoutCallsDoesNot() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try await open()
        let thinking: [ChatEvent] = [
            .reasoning("Check the clock."), .thinking(.signed(text: "Check the clock.", signature: "sig==")),
            .thinking(.redacted(data: "opaque")),
            // The Responses API's reasoning item, its summary and encrypted content.
            .thinking(.encryptedReasoning(summary: ["Check the clock.", "Then say it."], content: "gAAAAB+/=")),
        ]
        let repository = StubGPTRepository([
            .answer(thinking + [.text("Let me look."), .toolCalls([call("a")]), .finished(reason: "tool_calls")]),
            .answer(thinking + [.text("It is noon."), .finished(reason: "stop")]),
        ])
        var conversation = Conversation(settings: settings)
        _ = await useCase(store, repository).send("What time is it?", in: &conversation) { _ in }
        let id = try #require(conversation.id)
        let loaded = try await store.load(id).get()
        #expect(
            loaded.messages[1].thinkingBlocks == [
                .signed(text: "Check the clock.", signature: "sig=="), .redacted(data: "opaque"),
                .encryptedReasoning(summary: ["Check the clock.", "Then say it."], content: "gAAAAB+/="),
            ])
        #expect(loaded.messages[1].parts == conversation.messages[1].parts)
        // The last answer called no tool: its text says it all, and no thinking is kept for it.
        #expect(loaded.messages[3].thinkingBlocks.isEmpty)
        #expect(loaded.messages[3].content == "It is noon.")
    }

    @Test func theToolsCalledAreSearchableAndTheirResultsAreNot() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try await open()
        let id = try #require(try await answeredWithARound(store).id)
        #expect(try await store.search("time__now", limit: 5).get().map(\.id) == [id])
        #expect(try await store.search("noon", limit: 5).get().map(\.id) == [id])
        #expect(try await store.search("12:00", limit: 5).get().isEmpty)
    }

    @Test func aCallWhoseResultWasNeverStoredIsAnsweredAsLostWhenSentAgain() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try await open()
        let source = HangingToolSource()
        let repository = StubGPTRepository([calling(call("a")), noon])
        let useCase = useCase(store, repository, source: source)
        let task = Task {
            var conversation = Conversation(settings: settings)
            return await useCase.send("What time is it?", in: &conversation) { _ in }
        }
        defer { task.cancel() }
        while !source.wasCalled { try await Task.sleep(for: .milliseconds(10)) }

        // Another process (a later `chat -c`) reads what the one whose tool still runs stored.
        let other = try await open()
        let stored = try #require(try await other.mostRecentlyUsed(answeredOnly: true).get())
        #expect(stored.messages.map(\.role) == [.user, .assistant])
        #expect(stored.messages[1].toolCalls == [call("a")])
        #expect(stored.messages[1].content == "Let me look.")
        let sent = try body(asking("Still there?", after: stored))
        #expect(
            sent.contains(
                #"{"content":"Let me look.","role":"assistant","tool_calls":[{"function":{"arguments":"#
                    + #""{\"n\":1.5,\"zone\":\"UTC\"}","name":"time__now"},"id":"a","type":"function"}]},"#
                    + #"{"content":"Error: \#(Conversation.lostResultText)","role":"tool","tool_call_id":"a"},"#
                    + #"{"content":"Still there?","role":"user"}"#), "\(sent)")
        task.cancel()
        let turn = await task.value
        #expect(turn.error == .cancelled)
        // The cancelled call's result was stored with the round.
        let after = try await other.load(try #require(stored.id)).get()
        #expect(after.messages.map(\.role) == [.user, .assistant, .tool])
        #expect(after.messages[2].toolResults.first?.isError == true)
    }

    @Test func retryDropsTheRoundFromTheAnswerShownAndKeepsItOnItsBranch() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try await open()
        let repository = StubGPTRepository([
            calling(call("a")), noon, .answer([.text("Noon, still."), .finished(reason: "stop")]),
        ])
        let useCase = useCase(store, repository)
        var conversation = Conversation(settings: settings)
        _ = await useCase.send("What time is it?", in: &conversation) { _ in }
        let firstAnswer = try #require(conversation.messages[1].storageID)
        let turn = await useCase.retry(in: &conversation) { _ in }
        #expect(turn.answer?.content == "Noon, still.")
        #expect(conversation.messages.map(\.content) == ["What time is it?", "Noon, still."])
        // The retry asked from the question: no round in its request.
        #expect(repository.requests.last?.messages.map(\.role) == [.user])

        let id = try #require(conversation.id)
        let loaded = try await store.load(id).get()
        #expect(loaded.messages == conversation.messages)
        #expect(try await store.list(limit: 1).get().first?.turns == 1)
        // The answer it replaced, its round with it, is the other answer to the question.
        let answers = try await store.alternatives(to: try #require(conversation.messages[1].storageID)).get()
        #expect(answers.map(\.storageID) == [firstAnswer, conversation.messages[1].storageID])
        let back = try await store.showBranch(through: firstAnswer, of: id).get()
        #expect(back.messages.map(\.role) == [.user, .assistant, .tool, .assistant])
        #expect(back.messages.last?.content == "It is noon.")
    }

    @Test func undoRemovesTheQuestionItsRoundsAndTheAnswer() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try await open()
        var conversation = try await answeredWithARound(store)
        let id = try #require(conversation.id)
        #expect(try rowCount(id) == 4)
        let undone = await useCase(store, StubGPTRepository([noon])).undo(in: &conversation)
        #expect(undone)
        #expect(conversation.messages.isEmpty)
        #expect(try rowCount(id) == 0)
        #expect(try await store.load(id).get().messages.isEmpty)
    }

    @Test func aSalvageCopiesTheRoundsWithTheirParts() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try await open()
        let conversation = try await answeredWithARound(store)
        let path = root + "-salvaged.sqlite"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let copy = try SQLiteConnection(path: path)
        try HistorySchema.migrate(copy)
        let outcome = HistorySalvager.copy(from: try directory.file("history.sqlite"), into: copy)
        #expect(outcome.recovered == 1)
        let salvaged = try ConversationQueries.conversation(copy, id: try #require(conversation.id))
        #expect(salvaged.messages == conversation.messages)
    }

    @Test func aForkKeepsTheRoundsItTakes() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try await open()
        let parent = try await answeredWithARound(store)
        let kept = parent.messages.map { message in
            var copy = message
            copy.storageID = nil
            return copy
        }
        let point = BranchPoint(
            conversationID: try #require(parent.id), messageID: parent.messages.last?.storageID, turn: 1)
        let fork = try #require(
            await store.begin(Conversation(settings: settings, branchedFrom: point), storing: kept))
        let loaded = try await store.load(fork.id).get()
        #expect(loaded.messages.map { ChatMessage(role: $0.role, parts: $0.parts, state: $0.state) } == kept)
        #expect(try body(loaded) == body(parent))
    }

    @Test func aSavedConversationKeepsItsRoundsAndItsProvider() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let image = ImageAttachment(path: "/tmp/chart.png", mimeType: "image/png", byteCount: 3, sha256: "abc")
        let messages = [
            ChatMessage(role: .user, content: "Chart the time"),
            ChatMessage(role: .assistant, parts: [.text("Plotting."), .toolCall(call("a"))], state: .complete),
            ChatMessage(
                role: .tool,
                parts: [
                    .toolResult(ToolResult(callID: "a", content: [.text("here"), .image(image)], isError: true))
                ]),
            ChatMessage(role: .assistant, content: "Done."),
        ]
        var chatSettings = settings
        chatSettings.provider = "anthropic"
        let conversation = Conversation(settings: chatSettings, messages: messages)
        let archive = JSONConversationArchive(home: nil)
        let path = root + "-saved.json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try archive.save(conversation, to: path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(#""version" : 2"#))
        #expect(text.contains(#""provider" : "anthropic""#))
        let loaded = try archive.load(from: path)
        #expect(loaded.settings.provider == "anthropic")
        #expect(loaded.messages.map(\.role) == messages.map(\.role))
        #expect(loaded.messages[1] == messages[1])
        let result = try #require(loaded.messages[2].toolResults.first)
        #expect(result.isError && result.callID == "a" && result.content.first == .text("here"))
        guard case .image(let read)? = result.content.last else {
            Issue.record("the result's image was not read back")
            return
        }
        #expect(read.path == image.path && read.sha256 == image.sha256)

        // A conversation without tools is written as before: version 1, no parts.
        try archive.save(Conversation(settings: settings, messages: [messages[0], messages[3]]), to: path)
        let plain = try String(contentsOfFile: path, encoding: .utf8)
        #expect(plain.contains(#""version" : 1"#) && !plain.contains("parts") && !plain.contains("provider"))
    }

    @Test func aDatabaseOfSchemaV7KeepsEveryConversationAndTakesToolRounds() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let directory = try directory
        #expect(directory.prepare())
        // The schema the release before tool rounds made, written as it wrote rows.
        let old = try SQLiteConnection(path: directory.file("history.sqlite"))
        try old.execute("PRAGMA journal_mode = WAL")
        for migration in HistorySchema.migrations.prefix(7) { try old.execute(migration.sql) }
        try old.execute("PRAGMA user_version = 7")
        for conversation in 0..<2 {
            let id = "old0000\(conversation)"
            try old.run(
                "INSERT INTO conversation (id, title, created_at, updated_at, head_id, answered) VALUES (?, ?, ?, ?, 0, 1)",
                [id, "old \(conversation)", 1.0, Double(conversation + 2)])
            var parent: Int64 = 0
            for turn in 0..<2 {
                for (role, text) in [("user", "q"), ("assistant", "a")] {
                    try old.run(
                        """
                        INSERT INTO message (conversation_id, role, content, state, model, settings, created_at,
                            updated_at, parent_id) VALUES (?, ?, ?, 'complete', 'old-model', '{}', 1, 2, ?)
                        """, [id, role, "\(text)\(turn) of \(conversation)", parent])
                    parent = old.lastInsertedRowID
                }
            }
            try old.run("UPDATE conversation SET head_id = ? WHERE id = ?", [parent, id])
        }

        let store = try await open()
        let listed = try await store.list(limit: nil, includingUnanswered: true).get().summaries
        #expect(listed.map(\.id) == ["old00001", "old00000"])
        #expect(listed.map(\.turns) == [2, 2])
        var conversation = try await store.load("old00001").get()
        #expect(conversation.messages.map(\.content) == ["q0 of 1", "a0 of 1", "q1 of 1", "a1 of 1"])
        #expect(try await store.search("q1", limit: 5).get().map(\.id).sorted() == ["old00000", "old00001"])

        // Continued with tools: the round is stored after the old turns.
        let repository = StubGPTRepository([calling(call("a")), noon])
        _ = await useCase(store, repository).send("What time is it?", in: &conversation) { _ in }
        let loaded = try await store.load("old00001").get()
        #expect(loaded.messages == conversation.messages)
        #expect(loaded.messages.suffix(3).map(\.role) == [.assistant, .tool, .assistant])
        #expect(try await store.list(limit: 1).get().first?.turns == 3)
        let version = try old.firstRow("PRAGMA user_version") { row throws(StorageError) in
            try row.column(0, as: Int.self)
        }
        #expect(version == HistorySchema.migrations.count)
    }
}
