import ChatDomain
import Foundation
import Testing

@testable import ChatHistory
@testable import ChatSystem

/// Branches in the history: an answer `/retry` replaced and a question `/edit` asked again stay
/// stored beside what replaced them; a conversation shows one branch; `/fork` records where a
/// conversation came from; and a database from before branches keeps every conversation.
@Suite("Branching history", .timeLimit(.minutes(1)))
struct BranchingHistoryTests {
    private let root = NSTemporaryDirectory() + "chat-branches-\(UUID().uuidString)"
    private let settings = ChatSettings(model: "m")

    private var directory: DataDirectory {
        get throws { try #require(DataDirectory(environment: ["XDG_DATA_HOME": root, "HOME": "/nonexistent"])) }
    }

    private func open() async throws -> SQLiteConversationStore {
        try await SQLiteConversationStore.open(in: try directory, report: { Issue.record("history: \($0)") }).get()
    }

    private func user(_ text: String) -> ChatMessage { ChatMessage(role: .user, content: text) }
    private func assistant(_ text: String) -> ChatMessage { ChatMessage(role: .assistant, content: text) }

    /// Appends `messages` one by one, as a REPL does; returns their ids.
    private func say(_ messages: [ChatMessage], to id: String, _ store: SQLiteConversationStore) async throws
        -> [Int64]
    {
        var ids: [Int64] = []
        for message in messages {
            ids.append(try #require(await store.append(message, settings: settings, systemPrompt: nil, to: id)))
        }
        return ids
    }

    private func contents(_ id: String, _ store: SQLiteConversationStore) async throws -> [String] {
        try await store.load(id).get().messages.map(\.content)
    }

    @Test func aReplacedAnswerStaysAsASiblingAndEitherBranchCanBeShown() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try await open()
        let id = try #require(await store.begin(Conversation(settings: settings)))
        let ids = try await say([user("q1"), assistant("a1"), user("q2"), assistant("first a2")], to: id, store)

        // /retry: a branch after the question, then the new answer.
        await store.branch(id, after: ids[2])
        let second = try await say([assistant("second a2")], to: id, store)
        #expect(try await contents(id, store) == ["q1", "a1", "q2", "second a2"])
        let alternatives = try await store.alternatives(to: second[0]).get()
        #expect(alternatives.map(\.content) == ["first a2", "second a2"])
        #expect(try await store.list(limit: 1).get().first?.turns == 2)

        // Going on from the first answer: the branch shown, from now on, ends there.
        let shown = try await store.showBranch(through: ids[3], of: id).get()
        #expect(shown.messages.map(\.content) == ["q1", "a1", "q2", "first a2"])
        _ = try await say([user("q3 after the first")], to: id, store)
        #expect(try await contents(id, store) == ["q1", "a1", "q2", "first a2", "q3 after the first"])
        // Back to the second: its branch, down to its newest message.
        #expect(try await store.showBranch(through: second[0], of: id).get().messages.last?.content == "second a2")
        #expect(
            try await store.showBranch(through: ids[3], of: id).get().messages.last?.content == "q3 after the first")
    }

    @Test func aQuestionAskedAgainLeavesTheTurnsAfterItOnTheirBranch() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try await open()
        let id = try #require(await store.begin(Conversation(settings: settings)))
        let ids = try await say([user("q1"), assistant("a1"), user("q2"), assistant("a2")], to: id, store)

        // /edit 1: a branch before the first message.
        await store.branch(id, after: nil)
        let edited = try await say([user("q1, edited"), assistant("a1 to the edit")], to: id, store)
        #expect(try await contents(id, store) == ["q1, edited", "a1 to the edit"])
        #expect(try await store.alternatives(to: edited[0]).get().map(\.content) == ["q1", "q1, edited"])
        // Nothing left the history: the old branch is there whole.
        #expect(try await store.showBranch(through: ids[0], of: id).get().messages.count == 4)
        #expect(try await store.search("a2", limit: 5).get().map(\.id) == [id])
    }

    @Test func undoRemovesTheExchangeWithTheAnswersItReplaced() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try await open()
        let id = try #require(await store.begin(Conversation(settings: settings)))
        let ids = try await say([user("q1"), assistant("a1"), user("q2"), assistant("old a2")], to: id, store)
        await store.branch(id, after: ids[2])
        let new = try await say([assistant("new a2")], to: id, store)
        await store.remove(ids: [ids[2], new[0]])
        #expect(try await contents(id, store) == ["q1", "a1"])
        #expect(try await store.alternatives(to: ids[3]).get().isEmpty)
        _ = try await say([user("q2 again")], to: id, store)
        #expect(try await contents(id, store) == ["q1", "a1", "q2 again"])
    }

    @Test func aForkRemembersWhereItCameFrom() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try await open()
        let parent = try #require(await store.begin(Conversation(settings: settings)))
        let ids = try await say([user("q1"), assistant("a1"), user("q2"), assistant("a2")], to: parent, store)
        let point = BranchPoint(conversationID: parent, messageID: ids[1], turn: 1)
        let fork = try #require(
            await store.begin(
                Conversation(settings: settings, branchedFrom: point), storing: [user("q1"), assistant("a1")]))
        let loaded = try await store.load(fork.id).get()
        #expect(loaded.branchedFrom == point)
        #expect(loaded.messages.map(\.content) == ["q1", "a1"])
        let listed = try await store.list(limit: 5).get()
        #expect(listed.first { $0.id == fork.id }?.branchedFrom == point)
        #expect(listed.first { $0.id == parent }?.branchedFrom == nil)
        #expect(try await contents(parent, store) == ["q1", "a1", "q2", "a2"])
    }

    @Test func aDatabaseFromBeforeBranchesKeepsEveryConversationAndGoesOnFromItsLastMessage() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let directory = try directory
        #expect(directory.prepare())
        // The schema the release before branches made, written as it wrote rows.
        let old = try SQLiteConnection(path: directory.file("history.sqlite"))
        try old.execute("PRAGMA journal_mode = WAL")
        for migration in HistorySchema.migrations.prefix(5) { try old.execute(migration.sql) }
        try old.execute("PRAGMA user_version = 5")
        for conversation in 0..<3 {
            try old.run(
                "INSERT INTO conversation (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)",
                ["old0000\(conversation)", "old \(conversation)", 1.0, Double(conversation + 2)])
            for turn in 0..<3 {
                for (role, text) in [("user", "q"), ("assistant", "a")] {
                    try old.run(
                        """
                        INSERT INTO message (conversation_id, role, content, state, model, settings, created_at,
                            updated_at) VALUES (?, ?, ?, 'complete', 'old-model', '{}', 1, 2)
                        """, ["old0000\(conversation)", role, "\(text)\(turn) of \(conversation)"])
                }
            }
        }

        let store = try await open()
        let listed = try await store.list(limit: nil, includingUnanswered: true).get().summaries
        #expect(listed.map(\.id) == ["old00002", "old00001", "old00000"])
        #expect(listed.map(\.turns) == [3, 3, 3])
        for conversation in 0..<3 {
            let loaded = try await store.load("old0000\(conversation)").get()
            #expect(
                loaded.messages.map(\.content)
                    == (0..<3).flatMap { ["q\($0) of \(conversation)", "a\($0) of \(conversation)"] })
            #expect(loaded.settings.model == "old-model")
        }
        _ = try await say([user("q3 of 1")], to: "old00001", store)
        #expect(try await contents("old00001", store).suffix(2) == ["a2 of 1", "q3 of 1"])
        #expect(try await store.search("q3", limit: 5).get().map(\.id) == ["old00001"])
    }

    @Test func rowsAnOlderReleaseAddsAfterTheMigrationFollowTheLastMessage() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try await open()
        let id = try #require(await store.begin(Conversation(settings: settings)))
        _ = try await say([user("q1"), assistant("a1")], to: id, store)
        // An older release writes no parent and no head.
        let old = try SQLiteConnection(path: try directory.file("history.sqlite"))
        for (role, text) in [("user", "q2 by an older chat"), ("assistant", "a2 by an older chat")] {
            try old.run(
                """
                INSERT INTO message (conversation_id, role, content, state, model, created_at, updated_at)
                VALUES (?, ?, ?, 'complete', 'm', 1, 2)
                """, [id, role, text])
        }
        #expect(try await contents(id, store) == ["q1", "a1", "q2 by an older chat", "a2 by an older chat"])
        #expect(try await store.list(limit: 1).get().first?.turns == 2)
        _ = try await say([user("q3")], to: id, store)
        #expect(try await contents(id, store).last == "q3")
        #expect(try await contents(id, store).count == 5)
    }
}
