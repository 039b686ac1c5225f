import ChatDomain
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import ChatHTTP
@testable import ChatHistory
@testable import ChatSystem

// MARK: - Helpers

/// What was collected, in order: what the store reported through `report`, say.
private final class Collected<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])

    func add(_ item: Element) { items.withLock { $0.append(item) } }

    var all: [Element] { items.withLock { $0 } }
}

/// A data directory of its own under /tmp for one test, removed when the test ends.
private final class Fixture {
    let root = NSTemporaryDirectory() + "chat-store-\(UUID().uuidString)"
    let reports = Collected<HistoryNotice>()
    /// `<root>/chat`, as `$XDG_DATA_HOME/chat`.
    let directory: DataDirectory

    init() {
        guard let directory = DataDirectory(environment: ["XDG_DATA_HOME": root, "HOME": "/nonexistent"]) else {
            preconditionFailure("an absolute XDG_DATA_HOME always names a data directory")
        }
        self.directory = directory
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    var databasePath: String { directory.file("history.sqlite") }

    /// Opens the store the way `chat` does.
    func open() async throws -> SQLiteConversationStore {
        let reports = reports
        return try await SQLiteConversationStore.open(in: directory, report: { reports.add($0) }).get()
    }

    /// A second connection, to look at (or tamper with) the database behind the store's back.
    func connection() throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: databasePath)
        try connection.setBusyTimeout(milliseconds: 15_000)
        return connection
    }

    /// The database's schema version.
    func schemaVersion() throws -> Int? {
        try connection().firstRow("PRAGMA user_version") { row throws(StorageError) in try row.column(0, as: Int.self) }
    }

    /// Whether the database has a table (or virtual table) called `name`.
    func tableExists(_ name: String, in db: SQLiteConnection) throws -> Bool {
        try db.firstRow("SELECT 1 FROM sqlite_master WHERE name = ?", [name]) { _ throws(StorageError) in true } != nil
    }

    /// Conversation old00001, a question and its answer, stored the way the first release did.
    func insertOldConversation(into db: SQLiteConnection) throws {
        try db.run("INSERT INTO conversation (id, title, created_at, updated_at) VALUES ('old00001', '', 1, 2)")
        for (role, content) in [("user", "an ancient question"), ("assistant", "a venerable answer")] {
            try db.run(
                """
                INSERT INTO message (conversation_id, role, content, state, model, created_at, updated_at)
                VALUES ('old00001', ?, ?, 'complete', 'old-model', 1, 2)
                """,
                [role, content])
        }
    }

    /// A database as the GRDB-based releases left it with their first `count` migrations
    /// applied: each named in `grdb_migrations` (the table as GRDB 7 makes it), `user_version` 0.
    func grdbDatabase(migrations count: Int) throws -> SQLiteConnection {
        let db = try connection()
        try db.execute("PRAGMA journal_mode = WAL")
        try db.execute("CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        for (identifier, migration) in zip(["v1-conversations", "v2-search"].prefix(count), HistorySchema.migrations) {
            try db.execute(migration.sql)
            try db.run("INSERT INTO grdb_migrations (identifier) VALUES (?)", [identifier])
        }
        return db
    }

    /// Permission bits of `path`, or nil if it does not exist.
    func mode(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o777
    }
}

private let settings = ChatSettings(model: "model-a")

private func user(_ text: String, _ state: MessageState = .complete) -> ChatMessage {
    ChatMessage(role: .user, content: text, state: state)
}

private func assistant(_ text: String, _ state: MessageState = .complete, usage: TokenUsage? = nil) -> ChatMessage {
    ChatMessage(role: .assistant, content: text, state: state, usage: usage)
}

extension SQLiteConversationStore {
    /// A new conversation holding `messages`; returns its id.
    fileprivate func conversation(_ messages: [ChatMessage], title: String? = nil) async throws -> String {
        let id = try #require(await begin(Conversation(settings: settings, title: title)))
        for message in messages {
            _ = try #require(await append(message, settings: settings, systemPrompt: nil, to: id))
        }
        return id
    }

    /// The ids `search` finds, in order; fails the test if the search fails.
    fileprivate func found(_ text: String) async -> [String]? {
        switch await search(text, limit: 50) {
        case .success(let list): return list.map(\.id)
        case .failure(let error):
            Issue.record("search \(text.debugDescription) failed: \(error)")
            return nil
        }
    }

    fileprivate var listed: [String] {
        get async { (try? await list(limit: 100).get())?.map(\.id) ?? [] }
    }
}

// MARK: - Tests

@Suite("SQLiteConversationStore", .timeLimit(.minutes(1)))
struct ConversationStoreTests {
    /// Lives as long as the test: a new suite instance is made for each test.
    fileprivate let fixture = Fixture()

    @Test func roundTripKeepsMessagesModelSystemPromptAndUsage() async throws {
        let store = try await fixture.open()
        let started = WallClock.now()
        let id = try #require(await store.begin(Conversation(systemPrompt: "Be brief.", settings: settings)))
        #expect(id.count == 8)
        #expect(id.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) })

        let question = user("What is the capital of France, if you please, dear model?")
        let questionID = try #require(
            await store.append(question, settings: settings, systemPrompt: "Be brief.", to: id))
        let answerID = try #require(
            await store.append(assistant("Pa", .interrupted), settings: settings, systemPrompt: "Be brief.", to: id))
        let usage = TokenUsage(promptTokens: 12, completionTokens: 3, totalTokens: 15)
        var answer = assistant("Paris.", usage: usage)
        answer.reasoning = "a capital question"
        await store.update(answer, id: answerID)

        let loaded = try await store.load(id).get()
        var storedQuestion = question
        storedQuestion.storageID = questionID
        var storedAnswer = answer
        storedAnswer.storageID = answerID
        #expect(loaded.id == id)
        #expect(loaded.messages == [storedQuestion, storedAnswer])
        #expect(loaded.systemPrompt == "Be brief.")
        #expect(loaded.settings.model == "model-a")
        // The title is the first eight words of the first message.
        #expect(loaded.title == "What is the capital of France, if you")

        // Any unique prefix finds it, in either case; so does "the most recently used".
        #expect(try await store.load(String(id.prefix(3))).get() == loaded)
        #expect(try await store.load(id.uppercased()).get() == loaded)
        #expect(try await store.mostRecentlyUsed().get() == loaded)

        let summary = try #require(try await store.list(limit: 10).get().first)
        #expect(summary.id == id)
        #expect(summary.model == "model-a")
        #expect(summary.turns == 1)
        #expect(summary.title == loaded.title)
        #expect(summary.createdAt >= started - 1 && summary.createdAt <= summary.updatedAt)
        #expect(summary.updatedAt <= WallClock.now() + 1)
        #expect(fixture.reports.all == [])
    }

    @Test func newIDsAreEightBase36DigitsThatUseEveryDigitAndDiffer() {
        let ids = (0..<2000).map { _ in ConversationID.make() }
        #expect(ids.allSatisfy { $0.count == 8 })
        #expect(ids.allSatisfy { $0.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) } })
        #expect(Set(ids).count == ids.count)
        // Every position takes every one of the 36 digits (2,000 draws: one left out has odds of e⁻⁵⁵).
        for position in 0..<8 {
            let seen = Set(ids.map { Array($0)[position] })
            #expect(seen.count == 36, "position \(position) took \(seen.count) digits")
        }
    }

    @Test func aConversationBegunWithItsMessagesIsStoredInOneCommit() async throws {
        let store = try await fixture.open()
        let walPath = fixture.databasePath + "-wal"
        func walFrames() -> Int {
            let size = (try? FileManager.default.attributesOfItem(atPath: walPath)[.size] as? Int) ?? 0
            return max(size - 32, 0) / (4096 + 24)
        }
        // One-by-one, as before: the conversation, then its question.
        let framesBefore = walFrames()
        let apart = try await store.conversation([user("asked apart")])
        let framesApart = walFrames() - framesBefore

        let question = user("What is the capital of France, if you please, dear model?")
        let conversation = Conversation(systemPrompt: "Be brief.", settings: settings)
        let framesBeforeTogether = walFrames()
        let stored = try #require(await store.begin(conversation, storing: [question]))
        let framesTogether = walFrames() - framesBeforeTogether
        let ids = try #require(stored.messageIDs)
        #expect(ids.count == 1)

        var storedQuestion = question
        storedQuestion.storageID = ids.first
        let loaded = try await store.load(stored.id).get()
        #expect(loaded.messages == [storedQuestion])
        #expect(loaded.systemPrompt == "Be brief.")
        #expect(loaded.title == "What is the capital of France, if you")
        #expect(stored.id != apart)
        // The conversation's pages go to the WAL once, in one commit, not once per write.
        #expect(framesTogether > 0 && framesTogether < framesApart)

        // With no messages, just the conversation.
        let empty = try #require(await store.begin(Conversation(settings: settings), storing: []))
        #expect(empty.messageIDs == [])
        #expect(try await store.load(empty.id).get().messages == [])
        #expect(fixture.reports.all == [])
    }

    @Test(arguments: [
        ("what do you see\n\nnotes.txt\n```\nfirst line\n```", "what do you see"),
        ("\n  \nsummarise\nthis\n \nlong piped text", "summarise this"),
        ("one two three four five six seven eight nine", "one two three four five six seven eight"),
        ("", ""),
        ("first\t \n \t\nsecond", "first"), ("a\nb\n\n\n\nc", "a b"), ("  \n\t\n", ""),
        ("café 中文 🎉\n\u{0301}x y", "café 中文 🎉 \u{0301}x y"), ("line\r\n\r\nnext", "line"),
    ])
    func theTitleIsTheFirstWordsOfTheFirstParagraph(text: String, title: String) {
        #expect(ConversationTitle.make(from: text) == title)
    }

    @Test func dataOutlivesTheStoreAndTwoStoresWriteSideBySide() async throws {
        var first: SQLiteConversationStore? = try await fixture.open()
        let second = try await fixture.open()
        let a = try #require(try await first?.conversation([user("from the first")]))
        let b = try await second.conversation([user("from the second")])
        first = nil
        let reopened = try await fixture.open()
        #expect(Set(await reopened.listed) == [a, b])
        #expect(try await reopened.load(a).get().messages.map(\.content) == ["from the first"])
    }

    @Test func ambiguousAndUnknownPrefixesAreErrors() async throws {
        let store = try await fixture.open()
        let db = try fixture.connection()
        try db.transaction(writing: true) { () throws(StorageError) in
            for (id, time) in [("abc12345", 1.0), ("abc67890", 2.0), ("xyz00000", 3.0)] {
                try db.run(
                    "INSERT INTO conversation (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)",
                    [id, "title " + id, time, time])
            }
        }

        switch await store.load("abc") {
        case .failure(.ambiguous(let id, let matches)):
            #expect(id == "abc")
            #expect(matches == ["abc67890", "abc12345"])
        case let other:
            Issue.record("expected ambiguous, got \(other)")
        }
        #expect(try await store.load("abc1").get().id == "abc12345")
        #expect(try await store.load("X").get().id == "xyz00000")
        #expect(await store.load("nope").map(\.id) == .failure(.notFound(id: "nope")))
        #expect(await store.load("").map(\.id) == .failure(.notFound(id: "")))
        #expect(await store.load("%").map(\.id) == .failure(.notFound(id: "%")))

        // Neither deleting nor renaming guesses.
        #expect(
            await store.delete("abc").map(\.id) == .failure(.ambiguous(id: "abc", matches: ["abc67890", "abc12345"])))
        #expect(
            await store.rename("abc", title: "x").map { true }
                == .failure(.ambiguous(id: "abc", matches: ["abc67890", "abc12345"])))
        #expect(await store.delete("nope").map(\.id) == .failure(.notFound(id: "nope")))
        #expect(await store.listed.count == 3)
    }

    @Test func listIsMostRecentlyUsedFirstNotMostRecentlyCreated() async throws {
        let store = try await fixture.open()
        let older = try await store.conversation([user("older question")])
        let answerID = try #require(
            await store.append(assistant("older", .interrupted), settings: settings, systemPrompt: nil, to: older))
        let newer = try await store.conversation([user("newer question")])
        #expect(await store.listed == [newer, older])

        // A checkpoint of the older conversation's answer counts as using it.
        await store.update(assistant("older answer"), id: answerID)
        #expect(await store.listed == [older, newer])
        #expect(try await store.mostRecentlyUsed().get()?.id == older)

        _ = await store.append(user("again"), settings: settings, systemPrompt: nil, to: newer)
        #expect(await store.listed == [newer, older])
        #expect(try await store.mostRecentlyUsed().get()?.id == newer)
        #expect(try await store.list(limit: 1).get().map(\.id) == [newer])
    }

    @Test func emptyHistoryListsNothing() async throws {
        let store = try await fixture.open()
        #expect(try await store.list(limit: 10).get() == [])
        #expect(try await store.mostRecentlyUsed().get() == nil)
        #expect(await store.found("anything") == [])
    }

    @Test func searchFindsEitherSideAndTheTitle() async throws {
        let store = try await fixture.open()
        let penguins = try await store.conversation([
            user("How do penguins keep warm in common winters?"),
            assistant("Dense feathers and a layer of fat."),
        ])
        let bread = try await store.conversation([
            user("A common recipe for bread?"), assistant("Flour, water, yeast and salt."),
        ])

        #expect(await store.found("penguins") == [penguins])
        #expect(await store.found("FEATHERS") == [penguins])
        #expect(await store.found("yeast") == [bread])
        #expect(await store.found("fat dense") == [penguins])
        #expect(await store.found("common") == [bread, penguins])
        #expect(await store.found("penguins yeast") == [])
        #expect(await store.found("giraffe") == [])
        #expect(await store.found("   ") == [])

        // The title: what /title set, matched in part too.
        #expect(await store.rename(String(bread.prefix(4)), title: "Kitchen notebook").map { true } == .success(true))
        #expect(await store.found("notebook") == [bread])
        #expect(await store.found("itchen") == [bread])
        #expect(try await store.load(bread).get().title == "Kitchen notebook")
    }

    @Test func quotesAndSpecialCharactersDoNotBreakTheSearch() async throws {
        let store = try await fixture.open()
        let tricky = try await store.conversation(
            [user(#"He said "hi" (twice) -- c'est ça: 100% *done* a_b"#), assistant("OK")], title: "Tricky")
        let plain = try await store.conversation([user("nothing special here"), assistant("fine")], title: "Plain")

        #expect(await store.found(#""hi""#) == [tricky])
        #expect(await store.found("(twice)") == [tricky])
        #expect(await store.found("c'est") == [tricky])
        #expect(await store.found("*done*") == [tricky])
        #expect(await store.found("ça") == [tricky])
        // FTS5 syntax, SQL and LIKE wildcards: none fails, none finds the plain conversation.
        for text in [
            #""unbalanced"#, #"a "" b"#, "NOT", "AND OR NOT", "NEAR(", "content:zebra", "-", "^start", "\\",
            "'; DROP TABLE message; --", "*", "{x}", "%", "_",
        ] {
            let found = await store.found(text)
            #expect(found != nil && found?.contains(plain) == false, "\(text)")
        }
        // LIKE's wildcards in the text are plain characters.
        #expect(await store.found("%") == [])
        #expect(await store.found("_") == [])
        #expect(await store.listed.count == 2)
    }

    @Test func deleteRemovesTheConversationAndItsMessages() async throws {
        let store = try await fixture.open()
        let doomed = try await store.conversation([user("about penguins"), assistant("they swim")])
        let kept = try await store.conversation([user("about bread"), assistant("it rises")])

        let deleted = try await store.delete(String(doomed.prefix(5))).get()
        #expect(deleted.id == doomed)
        #expect(deleted.title == "about penguins")
        #expect(deleted.turns == 1)

        #expect(await store.listed == [kept])
        #expect(await store.load(doomed).map(\.id) == .failure(.notFound(id: doomed)))
        #expect(await store.found("penguins") == [])
        #expect(await store.found("swim") == [])
        #expect(await store.found("rises") == [kept])
        let db = try fixture.connection()
        let messagesLeft = try db.firstRow("SELECT COUNT(*) FROM message WHERE conversation_id = ?", [doomed]) {
            row throws(StorageError) in try row.column(0, as: Int.self)
        }
        let indexedLeft = try db.firstRow(
            "SELECT COUNT(*) FROM message_fts WHERE message_fts MATCH 'penguins OR swim'"
        ) { row throws(StorageError) in try row.column(0, as: Int.self) }
        #expect(messagesLeft == 0)
        #expect(indexedLeft == 0)
        #expect(await store.delete(doomed).map(\.id) == .failure(.notFound(id: doomed)))
    }

    @Test func renameSetsTheTitleAndLaterMessagesKeepIt() async throws {
        let store = try await fixture.open()
        let id = try await store.conversation([user("first words here")])
        #expect(try await store.load(id).get().title == "first words here")

        #expect(await store.rename(id, title: "My own title").map { true } == .success(true))
        _ = await store.append(user("second message"), settings: settings, systemPrompt: nil, to: id)
        #expect(try await store.load(id).get().title == "My own title")
        #expect(try await store.list(limit: 1).get().first?.title == "My own title")
        #expect(await store.rename("zzzzzzzz", title: "x").map { true } == .failure(.notFound(id: "zzzzzzzz")))

        // A title given before the first message (/title in a new REPL) is the one kept.
        let titled = try await store.conversation([user("the message")], title: "Given first")
        #expect(try await store.load(titled).get().title == "Given first")
    }

    @Test func removeTakesOnlyTheGivenMessages() async throws {
        let store = try await fixture.open()
        let id = try #require(await store.begin(Conversation(settings: settings)))
        var ids: [Int64] = []
        for message in [user("one"), assistant("uno"), user("two"), assistant("dos")] {
            ids.append(try #require(await store.append(message, settings: settings, systemPrompt: nil, to: id)))
        }
        await store.remove(ids: [])
        await store.remove(ids: [ids[2], ids[3]])

        let loaded = try await store.load(id).get()
        #expect(loaded.messages.map(\.content) == ["one", "uno"])
        #expect(loaded.messages.map(\.storageID) == [ids[0], ids[1]])
        #expect(try await store.list(limit: 1).get().first?.turns == 1)
        #expect(await store.found("dos") == [])
        #expect(await store.found("uno") == [id])
    }

    /// A migration's writes (an index over every answer, say) go into the database at once and
    /// the WAL is emptied: every run would read them again at open until the next answer.
    @Test func aMigrationLeavesTheWALEmpty() async throws {
        #expect(fixture.directory.prepare())
        do {
            let old = try fixture.connection()
            try old.execute("PRAGMA journal_mode = WAL")
            let previous = HistorySchema.migrations.count - 1
            try old.execute(
                HistorySchema.migrations.prefix(previous).map(\.sql).joined(separator: "\n")
                    + "PRAGMA user_version = \(previous);")
            try fixture.insertOldConversation(into: old)
        }
        let store = try await fixture.open()
        let listed = try await store.list(limit: nil, includingUnanswered: true).get()
        #expect(listed.summaries.map(\.id) == ["old00001"])
        #expect(try fixture.schemaVersion() == HistorySchema.migrations.count)
        #expect(FileSystem.size(fixture.databasePath + "-wal") == 0)
    }

    @Test func anOlderSchemaIsMigratedAndItsMessagesBecomeSearchable() async throws {
        #expect(fixture.directory.prepare())
        do {
            // A database as the first release left it: only the v1 migration applied.
            let old = try fixture.connection()
            try old.execute("PRAGMA journal_mode = WAL")
            try old.execute(HistorySchema.migrations[0].sql + "PRAGMA user_version = 1;")
            #expect(try !fixture.tableExists("message_fts", in: old))
            try fixture.insertOldConversation(into: old)
        }

        let store = try await fixture.open()
        #expect(await store.found("ancient") == ["old00001"])
        #expect(await store.found("venerable") == ["old00001"])
        let loaded = try await store.load("old0").get()
        #expect(loaded.messages.map(\.content) == ["an ancient question", "a venerable answer"])
        #expect(loaded.settings.model == "old-model")
        #expect(try fixture.schemaVersion() == HistorySchema.migrations.count)

        // New messages are indexed too.
        _ = await store.append(user("a modern follow-up"), settings: settings, systemPrompt: nil, to: "old00001")
        #expect(await store.found("modern") == ["old00001"])
    }

    @Test func aConversationsSettingsAreStoredAndTheNewestAreLoaded() async throws {
        let store = try await fixture.open()
        let sampled = ChatSettings(
            model: "model-b", sampling: [.temperature: .number(0.4), .maxTokens: .wholeNumber(7), .topP: .number(0.5)],
            stream: false, maxContextTokens: 9)
        let id = try #require(await store.begin(Conversation(settings: sampled)))
        _ = await store.append(
            contentsOf: [user("one"), assistant("two")], settings: sampled, systemPrompt: nil, to: id)
        // Stream and the context limit belong to the run, not the conversation.
        #expect(
            try await store.load(id).get().settings
                == ChatSettings(
                    model: "model-b",
                    sampling: [.temperature: .number(0.4), .maxTokens: .wholeNumber(7), .topP: .number(0.5)]))
        #expect(try await store.mostRecentlyUsed().get()?.settings.sampling[.temperature] == .number(0.4))

        // The newest message's settings win, also when they set nothing.
        _ = await store.append(
            user("three"), settings: ChatSettings(model: "model-c", sampling: [.maxTokens: .wholeNumber(3)]),
            systemPrompt: nil, to: id)
        #expect(
            try await store.load(id).get().settings
                == ChatSettings(model: "model-c", sampling: [.maxTokens: .wholeNumber(3)]))
        _ = await store.append(user("four"), settings: ChatSettings(model: "model-c"), systemPrompt: nil, to: id)
        #expect(try await store.load(id).get().settings == ChatSettings(model: "model-c"))
        let stored = try fixture.connection().rows(
            "SELECT settings FROM message WHERE conversation_id = ? ORDER BY id", [id]
        ) { row throws(StorageError) in try row.column(0, as: String?.self) }
        #expect(
            stored == [
                #"{"max_tokens":7,"temperature":0.4,"top_p":0.5}"#, #"{"max_tokens":7,"temperature":0.4,"top_p":0.5}"#,
                #"{"max_tokens":3}"#, "{}",
            ])
    }

    @Test func aDatabaseFromBeforeSettingsWereStoredLoadsAndStoresThemFromThenOn() async throws {
        #expect(fixture.directory.prepare())
        do {
            let old = try fixture.connection()
            try old.execute("PRAGMA journal_mode = WAL")
            try old.execute(
                HistorySchema.migrations[0].sql + HistorySchema.migrations[1].sql + "PRAGMA user_version = 2;")
            try fixture.insertOldConversation(into: old)
        }
        let store = try await fixture.open()
        #expect(try fixture.schemaVersion() == HistorySchema.migrations.count)
        let loaded = try await store.load("old00001").get()
        #expect(loaded.settings == ChatSettings(model: "old-model"))
        #expect(loaded.messages.map(\.content) == ["an ancient question", "a venerable answer"])

        _ = await store.append(
            user("now"), settings: ChatSettings(model: "new", sampling: [.temperature: .number(1)]), systemPrompt: nil,
            to: "old00001")
        #expect(
            try await store.load("old00001").get().settings
                == ChatSettings(model: "new", sampling: [.temperature: .number(1)]))
        #expect(fixture.reports.all == [])
    }

    @Test func unreadableStoredSettingsLeaveTheConversationLoadable() async throws {
        let store = try await fixture.open()
        let id = try await store.conversation([user("hi")])
        try fixture.connection().run("UPDATE message SET settings = 'not json' WHERE conversation_id = ?", [id])
        let loaded = try await store.load(id).get()
        #expect(loaded.settings == settings)
        #expect(loaded.messages.map(\.content) == ["hi"])
    }

    @Test func aDatabaseTheGRDBReleasesMadeIsAdoptedWithItsHistory() async throws {
        #expect(fixture.directory.prepare())
        do {
            let old = try fixture.grdbDatabase(migrations: 2)
            try fixture.insertOldConversation(into: old)
        }
        #expect(try fixture.schemaVersion() == 0)

        let store = try await fixture.open()
        let loaded = try await store.load("old00001").get()
        #expect(loaded.messages.map(\.content) == ["an ancient question", "a venerable answer"])
        #expect(await store.found("venerable") == ["old00001"])
        #expect(try fixture.schemaVersion() == HistorySchema.migrations.count)
        // GRDB's table stays, so a GRDB-based chat can still open the database.
        #expect(try fixture.tableExists("grdb_migrations", in: fixture.connection()))

        _ = await store.append(user("a modern follow-up"), settings: settings, systemPrompt: nil, to: "old00001")
        #expect(await store.found("modern") == ["old00001"])
        #expect(try await fixture.open().listed == ["old00001"])
        #expect(try fixture.schemaVersion() == HistorySchema.migrations.count)
        #expect(fixture.reports.all == [])
    }

    @Test func aGRDBDatabaseWithOnlyTheFirstMigrationGetsTheSecond() async throws {
        #expect(fixture.directory.prepare())
        do {
            let old = try fixture.grdbDatabase(migrations: 1)
            #expect(try !fixture.tableExists("message_fts", in: old))
            try fixture.insertOldConversation(into: old)
        }

        let store = try await fixture.open()
        #expect(await store.found("ancient") == ["old00001"])
        #expect(try fixture.schemaVersion() == HistorySchema.migrations.count)
    }

    @Test func aDatabaseANewerReleaseMigratedFurtherIsUsedAsItIs() async throws {
        #expect(fixture.directory.prepare())
        do {
            let newer = try fixture.connection()
            try newer.execute("PRAGMA journal_mode = WAL")
            for migration in HistorySchema.migrations { try newer.execute(migration.sql) }
            let future = HistorySchema.migrations.count + 1
            try newer.execute("CREATE TABLE from_the_future (x); PRAGMA user_version = \(future);")
            try fixture.insertOldConversation(into: newer)
        }

        let store = try await fixture.open()
        #expect(await store.found("ancient") == ["old00001"])
        #expect(try fixture.schemaVersion() == HistorySchema.migrations.count + 1)
    }

    @Test func aHistoryThatCannotBeOpenedIsAClearErrorNotACrash() async throws {
        // Where the database should be there is a directory: no file to open, nothing damaged.
        try FileManager.default.createDirectory(atPath: fixture.databasePath, withIntermediateDirectories: true)

        switch await SQLiteConversationStore.open(in: fixture.directory, report: { _ in }) {
        case .failure(.database(let failure)):
            #expect(
                failure
                    == DatabaseFailure(
                        .opening(fixture.databasePath), kind: .denied,
                        reason: "unable to open database file (Is a directory)"))
        case let other:
            Issue.record("expected a database error, got \(other)")
        }
    }

    @Test func manyMessagesAtOnceAreStoredInOrderWithTheirIdsAndAreSearchable() async throws {
        let store = try await fixture.open()
        let id = try #require(await store.begin(Conversation(settings: settings)))
        // More than one INSERT's worth of rows, and a remainder.
        let messages = (0..<250).map { $0.isMultiple(of: 2) ? user("question \($0)") : assistant("answer \($0)") }
        let ids = try #require(await store.append(contentsOf: messages, settings: settings, systemPrompt: "s", to: id))
        #expect(ids.count == 250)
        #expect(ids == ids.sorted() && Set(ids).count == 250)
        let loaded = try await store.load(id).get()
        #expect(loaded.messages.map(\.content) == messages.map(\.content))
        #expect(loaded.messages.map(\.storageID) == ids)
        #expect(loaded.title == "question 0")
        #expect(await store.found("answer 249") == [id])
        #expect(await store.append(contentsOf: [], settings: settings, systemPrompt: nil, to: id) == [])
    }

    @Test func aStoreOpenedInTheBackgroundWaitsForItsOpeningAndStores() async throws {
        let reports = fixture.reports
        let store = SQLiteConversationStore.openInBackground(in: fixture.directory, report: { reports.add($0) })
        // Used at once, as chat does while the request goes out: the first use waits.
        let id = try await store.conversation([user("asked early"), assistant("answered")])
        #expect(try await fixture.open().load(id).get().messages.map(\.content) == ["asked early", "answered"])
        #expect(reports.all.isEmpty)
    }

    @Test func whatCannotBeStoredWhileTheHistoryCannotOpenIsStoredInOrderOnceItCan() async throws {
        try FileManager.default.createDirectory(atPath: fixture.databasePath, withIntermediateDirectories: true)
        let reports = fixture.reports
        let store = SQLiteConversationStore.openInBackground(in: fixture.directory, report: { reports.add($0) })

        // The conversation goes on in memory: an id, and provisional row ids.
        let id = try #require(await store.begin(Conversation(settings: settings)))
        let question = try #require(await store.append(user("kept"), settings: settings, systemPrompt: nil, to: id))
        let answer = try #require(
            await store.append(assistant("so", .interrupted), settings: settings, systemPrompt: nil, to: id))
        #expect(question < 0 && answer < 0)
        await store.update(assistant("so far"), id: answer)
        #expect(
            reports.all == [
                .notStored(
                    DatabaseFailure(
                        .opening(fixture.databasePath), kind: .denied,
                        reason: "unable to open database file (Is a directory)"))
            ])
        guard case .failure(.database(let failure)) = await store.list(limit: 5) else {
            Issue.record("a read of a history that could not open must fail")
            return
        }
        #expect(failure.reason == "unable to open database file (Is a directory)")
        #expect(await store.unstored() == UnstoredMessages(count: 2, failure: failure))

        // Once it can be opened, the next write stores everything, in order.
        try FileManager.default.removeItem(atPath: fixture.databasePath)
        await store.update(assistant("so far, and whole"), id: answer)
        let loaded = try await store.load(id).get()
        #expect(loaded.messages.map(\.content) == ["kept", "so far, and whole"])
        #expect(loaded.messages.map(\.state) == [.complete, .complete])
        #expect(loaded.messages.allSatisfy { ($0.storageID ?? 0) > 0 })
        #expect(await store.unstored() == nil)
        #expect(reports.all.count == 1)
    }

    @Test func closingLeavesTheWALForALaterCheckpoint() async throws {
        do {
            let store = try await fixture.open()
            _ = try await store.conversation([user("kept in the WAL"), assistant("for now")])
        }
        // The last connection closed without a checkpoint (which would have emptied and removed
        // the WAL, with two fsyncs), and the next one reads what the WAL holds.
        let wal = try FileManager.default.attributesOfItem(atPath: fixture.databasePath + "-wal")
        #expect((wal[.size] as? Int ?? 0) > 0)
        #expect(try await fixture.open().found("WAL")?.count == 1)
    }

    @Test func aWALPast250PagesIsCheckpointedWhenTheNextRunOpensNotAtACommit() async throws {
        func size(_ suffix: String) throws -> Int {
            try FileManager.default.attributesOfItem(atPath: fixture.databasePath + suffix)[.size] as? Int ?? 0
        }
        let store = try await fixture.open()
        // A few messages: the next opening leaves them in the WAL (no fsync for a small one).
        _ = try await store.conversation([user("small"), assistant("write")])
        let small = try size("")
        _ = try await fixture.open()
        #expect(try size("") == small)

        // About 1.2 MB at once (a /load'ed conversation): past 250 pages, and no commit checkpoints it.
        let id = try #require(await store.begin(Conversation(settings: settings)))
        let texts = (0..<4000).map { "message \($0) " + String(repeating: "words ", count: 50) }
        let messages = texts.enumerated().map { index, text in index % 2 == 0 ? user(text) : assistant(text) }
        _ = try #require(await store.append(contentsOf: messages, settings: settings, systemPrompt: nil, to: id))
        #expect(try size("-wal") > HistoryOpening.walCheckpointBytes)
        #expect(try size("") == small)

        // The next run's opening folds it into the database.
        let next = try await fixture.open()
        #expect(try size("") > HistoryOpening.walCheckpointBytes)
        #expect(try await next.load(id).get().messages.count == 4000)
        #expect(fixture.reports.all == [])
    }

    @Test func filesArePrivateEvenInADirectoryThatWasNot() async throws {
        #expect(mkdir(fixture.root, 0o755) == 0)
        #expect(mkdir(fixture.directory.path, 0o755) == 0)
        #expect(chmod(fixture.directory.path, 0o755) == 0)
        let store = try await fixture.open()
        _ = try await store.conversation([user("secret"), assistant("kept private")])

        #expect(fixture.mode(fixture.directory.path) == 0o700)
        #expect(fixture.mode(fixture.databasePath) == 0o600)
        #expect(fixture.mode(fixture.directory.file("history.lock")) == 0o600)
        for suffix in ["-wal", "-shm"] {
            let mode = fixture.mode(fixture.databasePath + suffix)
            #expect(mode == nil || mode == 0o600, "history.sqlite\(suffix)")
        }
    }

    @Test func aFreshDirectoryIsCreatedPrivate() async throws {
        _ = try await fixture.open()
        #expect(fixture.mode(fixture.directory.path) == 0o700)
        #expect(fixture.mode(fixture.databasePath) == 0o600)
    }

    @Test func severalFirstOpensAtOnceAllSucceed() async throws {
        let directory = fixture.directory
        let outcomes = Collected<String>()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let outcome: String
                    let report: @Sendable (HistoryNotice) -> Void = { notice in
                        outcomes.add("report: \(notice)")
                    }
                    switch await SQLiteConversationStore.open(in: directory, report: report) {
                    case .success(let store):
                        var row: Int64?
                        if let id = await store.begin(Conversation(settings: settings)) {
                            row = await store.append(
                                user("parallel \(index)"), settings: settings, systemPrompt: nil, to: id)
                        }
                        outcome = row == nil ? "no row" : "ok"
                    case .failure(let error):
                        outcome = "\(error)"
                    }
                    outcomes.add(outcome)
                }
            }
        }
        #expect(outcomes.all == Array(repeating: "ok", count: 8))
        #expect(try await fixture.open().list(limit: 20).get().count == 8)
    }

    @Test func aFailedWriteIsReportedOnceAndEverythingIsStoredInOrderWhenWritesWorkAgain() async throws {
        let store = try await fixture.open()
        let id = try await store.conversation([user("before the failure")])
        let answerID = try #require(
            await store.append(assistant("partial", .interrupted), settings: settings, systemPrompt: nil, to: id))

        // Every write fails from now on, as on a full disk.
        let tamper = try fixture.connection()
        for (name, event) in [
            ("c", "INSERT ON conversation"), ("i", "INSERT ON message"), ("u", "UPDATE ON message"),
            ("d", "DELETE ON message"),
        ] {
            try tamper.execute(
                "CREATE TRIGGER fail_\(name) BEFORE \(event) BEGIN SELECT RAISE(FAIL, 'disk is full'); END")
        }
        let other = try #require(await store.begin(Conversation(settings: settings)))
        let question = try #require(await store.append(user("kept"), settings: settings, systemPrompt: nil, to: id))
        #expect(question < 0)
        await store.update(assistant("partial and more"), id: answerID)
        let answer = try #require(
            await store.append(assistant("an answer"), settings: settings, systemPrompt: nil, to: id))
        await store.remove(ids: [answer])

        #expect(fixture.reports.all.count == 1)
        guard case .notStored(let failure)? = fixture.reports.all.first else {
            Issue.record("a failed write is reported as not stored")
            return
        }
        #expect(failure.step == .using)
        #expect(failure.reason == "disk is full")
        // Reading still works, and what was stored before is intact.
        let loaded = try await store.load(id).get()
        #expect(loaded.messages.map(\.content) == ["before the failure", "partial"])
        #expect(loaded.messages.last?.state == .interrupted)
        #expect(await store.unstored()?.count == 2)

        // Once writes work again, everything is stored, in the order asked; the report is not
        // repeated.
        for name in ["c", "i", "u", "d"] { try tamper.execute("DROP TRIGGER fail_\(name)") }
        await store.update(assistant("partial and more, then whole"), id: answerID)
        let stored = try await store.load(id).get()
        #expect(stored.messages.map(\.content) == ["before the failure", "partial and more, then whole", "kept"])
        #expect(try await store.load(other).get().messages.isEmpty)
        #expect(await store.unstored() == nil)
        #expect(fixture.reports.all.count == 1)
    }

    @Test func titlesAreTheFirstWordsOnOneLine() {
        #expect(ConversationTitle.make(from: "  one\ntwo\tthree  ") == "one two three")
        let long = String(repeating: "abcdefghij ", count: 8)
        let title = ConversationTitle.make(from: long)
        #expect(title.count == 60)
        #expect(title.hasSuffix("…"))
    }
}
