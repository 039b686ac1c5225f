import ChatDomain
import Foundation
import Testing

@testable import ChatHistory
@testable import ChatSystem

/// The full-text index caught up at each search instead of as messages are stored: a search
/// finds exactly what it would have found with the index kept in step, whatever was stored,
/// changed or deleted since the last one; and a database whose index was kept in step by the
/// insert trigger (schema v4) moves over.
@Suite("Search index", .timeLimit(.minutes(1)))
struct SearchIndexTests {
    private let root = NSTemporaryDirectory() + "chat-search-index-\(UUID().uuidString)"
    private let settings = ChatSettings(model: "m")

    private var directory: DataDirectory {
        get throws { try #require(DataDirectory(environment: ["XDG_DATA_HOME": root, "HOME": "/nonexistent"])) }
    }

    private func open() async throws -> SQLiteConversationStore {
        try await SQLiteConversationStore.open(in: try directory, report: { _ in }).get()
    }

    /// A second connection to the database, to look behind the store's back.
    private func connection() throws -> SQLiteConnection {
        let db = try SQLiteConnection(path: try directory.file("history.sqlite"))
        try db.setBusyTimeout(milliseconds: 15_000)
        return db
    }

    /// How many messages the index (not the table) has for `query`.
    private func indexed(_ query: String) throws -> Int? {
        try connection().firstRow("SELECT COUNT(*) FROM message_fts WHERE message_fts MATCH ?", [query]) {
            row throws(StorageError) in try row.column(0, as: Int.self)
        }
    }

    /// FTS5's own check of the index against the messages it indexes: throws when they differ.
    private func checkIndex() throws {
        try connection().execute("INSERT INTO message_fts (message_fts, rank) VALUES ('integrity-check', 1)")
    }

    private func found(_ text: String, in store: SQLiteConversationStore) async throws -> [String] {
        try await store.search(text, limit: nil, includingUnanswered: true).get().summaries.map(\.id)
    }

    private func conversation(_ texts: [String], in store: SQLiteConversationStore) async throws -> String {
        let id = try #require(await store.begin(Conversation(settings: settings)))
        let messages = texts.enumerated().map { index, text in
            ChatMessage(role: index % 2 == 0 ? .user : .assistant, content: text)
        }
        _ = try #require(await store.append(contentsOf: messages, settings: settings, systemPrompt: nil, to: id))
        return id
    }

    @Test func storingDoesNotIndexAndTheNextSearchDoes() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try await open()
        let id = try await conversation(["about penguins", "they swim"], in: store)
        #expect(try indexed("penguins") == 0)

        #expect(try await found("penguins", in: store) == [id])
        #expect(try indexed("penguins") == 1)
        #expect(try indexed("swim") == 1)
        // Caught up already: nothing is indexed twice.
        #expect(try await found("swim", in: store) == [id])
        #expect(try indexed("swim") == 1)
        try checkIndex()
    }

    /// The newest message id the index holds.
    private func indexedThrough() throws -> Int64? {
        try connection().firstRow("SELECT indexed_through FROM message_fts_progress") { row throws(StorageError) in
            try row.column(0, as: Int64.self)
        }
    }

    /// A backlog shorter than `keptUpBacklog` is left to the next search: an answer then
    /// indexes nothing, and writes none of the full-text table's pages.
    @Test func aShortBacklogIsLeftToTheNextSearch() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try await open()
        _ = try await conversation(["question one", "answer one"], in: store)
        let id = try #require(await store.begin(Conversation(settings: settings)))
        _ = await store.append(
            ChatMessage(role: .user, content: "what of the marmot"), settings: settings, systemPrompt: nil, to: id)
        let recording = store.recordAnswer(to: id, settings: settings, systemPrompt: nil)
        recording.add(.text("the marmot sleeps"))
        _ = await recording.finish(ChatMessage(role: .assistant, content: "the marmot sleeps"))
        #expect(try indexedThrough() == 0)
        // The search indexes them, and finds the answer.
        let found = try await store.search("marmot", limit: nil, includingUnanswered: true).get()
        #expect(found.summaries.count == 1)
        #expect(try indexedThrough() == 4)
    }

    /// An answer's last write indexes a few messages, oldest first: a history nobody searches
    /// keeps its index nearly up to date, and a checkpoint (not the last write) indexes nothing.
    @Test func anAnswersLastWriteIndexesAFewMessages() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try await open()
        let backlog = (0..<20).flatMap { ["question \($0) lynx\($0)", "answer \($0)"] }
        _ = try await conversation(backlog, in: store)
        #expect(try indexedThrough() == 0)

        let id = try #require(await store.begin(Conversation(settings: settings)))
        _ = await store.append(
            ChatMessage(role: .user, content: "what of the marmot"), settings: settings, systemPrompt: nil, to: id)
        let recording = store.recordAnswer(to: id, settings: settings, systemPrompt: nil)
        recording.add(.text("the marmot sleeps"))
        try await Task.sleep(for: .milliseconds(1300))  // a checkpoint or two: no indexing
        #expect(try indexedThrough() == 0)
        _ = await recording.finish(ChatMessage(role: .assistant, content: "the marmot sleeps"))
        #expect(try indexedThrough() == SearchIndex.keptUpPerAnswer)
        #expect(try indexed("lynx0") == 1)
        #expect(try indexed("marmot") == 0)

        // The search indexes the rest, and finds every message.
        #expect(try await found("marmot", in: store) == [id])
        #expect(try indexed("lynx19") == 1)
        try checkIndex()
    }

    @Test func aLoadedConversationOfManyTurnsIsFoundWhole() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try await open()
        let before = try await conversation(["an earlier walrus", "indeed"], in: store)
        #expect(try await found("walrus", in: store) == [before])
        let texts = (0..<1000).flatMap { ["question \($0) tapir\($0)", "answer \($0) okapi\($0)"] }
        let loaded = try await conversation(texts, in: store)

        for word in ["tapir0", "okapi0", "tapir500", "okapi999", "question"] {
            #expect(try await found(word, in: store) == [loaded], "\(word)")
        }
        #expect(try await found("walrus", in: store) == [before])
        let listing = try await store.search("okapi999", limit: nil, includingUnanswered: true).get()
        #expect(listing.summaries.first?.snippet?.parts.contains { $0.isMatch && $0.text == "okapi999" } == true)
        #expect(try indexed("question") == 1000)
        try checkIndex()
    }

    @Test func changedAndDeletedMessagesLeaveTheIndexRight() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try await open()
        let indexedFirst = try await conversation(["old gnu question", "old gnu answer"], in: store)
        let doomed = try await conversation(["doomed yak question", "doomed yak answer"], in: store)
        _ = try await found("gnu", in: store)
        let ids = try await store.load(indexedFirst).get().messages.compactMap(\.storageID)
        // Changed after being indexed (an answer checkpointed, then finished).
        await store.update(ChatMessage(role: .assistant, content: "new ibex answer"), id: ids[1])
        // Stored, changed and removed before any search indexed them (removing a question
        // removes what follows it too).
        let later = try await conversation(["later emu question", "later emu answer"], in: store)
        let laterIDs = try await store.load(later).get().messages.compactMap(\.storageID)
        await store.update(ChatMessage(role: .assistant, content: "later moa answer"), id: laterIDs[1])
        let gone = try await conversation(["gone owl question", "gone owl answer"], in: store)
        await store.remove(ids: Array(try await store.load(gone).get().messages.compactMap(\.storageID).prefix(1)))
        _ = try await store.delete(doomed).get()

        #expect(try await found("ibex", in: store) == [indexedFirst])
        #expect(try await found("gnu", in: store) == [indexedFirst])  // the question still says it
        #expect(try await found("answer gnu", in: store) == [])
        #expect(try await found("yak", in: store) == [])
        #expect(try await found("moa", in: store) == [later])
        #expect(try await found("answer emu", in: store) == [])
        // The title still says "owl": the words of a message, not the title, are what match here.
        #expect(try await found("question owl", in: store) == [])
        #expect(try indexed("owl") == 0)
        #expect(try indexed("yak") == 0)
        try checkIndex()

        // Deleted after being indexed.
        _ = try await store.delete(indexedFirst).get()
        #expect(try await found("ibex", in: store) == [])
        #expect(try indexed("ibex OR gnu") == 0)
        try checkIndex()
    }

    @Test func aDatabaseIndexedByTheInsertTriggerMovesOver() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(try directory.prepare())
        do {
            // Schema v4: every message indexed by a trigger as it was stored.
            let old = try connection()
            try old.execute("PRAGMA journal_mode = WAL")
            for migration in HistorySchema.migrations.prefix(4) { try old.execute(migration.sql) }
            try old.execute("PRAGMA user_version = 4")
            try old.run("INSERT INTO conversation (id, title, created_at, updated_at) VALUES ('old00001', '', 1, 2)")
            for text in ["an ancient heron", "a venerable crane"] {
                try old.run(
                    """
                    INSERT INTO message (conversation_id, role, content, state, model, created_at, updated_at)
                    VALUES ('old00001', 'user', ?, 'complete', 'm', 1, 2)
                    """, [text])
            }
            #expect(try indexed("heron") == 1)
        }
        let store = try await open()
        let triggers = try connection().rows(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'message_fts%' ORDER BY name"
        ) {
            row throws(StorageError) in try row.column(0, as: String.self)
        }
        #expect(triggers == ["message_fts_delete", "message_fts_update"])
        // What the trigger indexed counts as indexed: not indexed twice.
        let progress = try connection().firstRow("SELECT indexed_through FROM message_fts_progress") {
            row throws(StorageError) in try row.column(0, as: Int.self)
        }
        #expect(progress == 2)

        _ = await store.append(
            ChatMessage(role: .user, content: "a modern heron"), settings: settings, systemPrompt: nil, to: "old00001")
        #expect(try await found("heron", in: store) == ["old00001"])
        #expect(try indexed("heron") == 2)
        #expect(try indexed("crane") == 1)
        let ids = try await store.load("old00001").get().messages.compactMap(\.storageID)
        await store.remove(ids: [ids[1]])
        #expect(try await found("crane", in: store) == [])
        try checkIndex()
    }
}
