import ChatDomain
import Foundation
import Synchronization
import Testing

@testable import ChatHistory
@testable import ChatSystem

/// Notices a store reported, in order.
private final class Notices: Sendable {
    private let items = Mutex<[HistoryNotice]>([])

    func add(_ notice: HistoryNotice) { items.withLock { $0.append(notice) } }

    var all: [HistoryNotice] { items.withLock { $0 } }

    var salvages: [HistorySalvage] {
        all.compactMap { if case .salvaged(let salvage) = $0 { salvage } else { nil } }
    }
}

/// A history of `conversations` conversations of `turns` exchanges each, their messages long
/// enough to fill many pages, written and then folded into the database file (no WAL left).
private struct DamagedHistoryFixture {
    let root = NSTemporaryDirectory() + "chat-damage-\(UUID().uuidString)"
    let directory: DataDirectory
    let settings = ChatSettings(model: "model-a")

    init() throws {
        directory = try #require(DataDirectory(environment: ["XDG_DATA_HOME": root, "HOME": "/nonexistent"]))
    }

    var path: String { directory.file("history.sqlite") }

    func open(_ notices: Notices) async throws -> SQLiteConversationStore {
        try await SQLiteConversationStore.open(in: directory, report: { notices.add($0) }).get()
    }

    /// Fills the history; returns the conversations' ids in the order made.
    func fill(conversations: Int = 30, turns: Int = 5, checkpoint: Bool = true) async throws -> [String] {
        let store = try await open(Notices())
        var ids: [String] = []
        for number in 0..<conversations {
            let messages = (0..<turns).flatMap { turn in
                [
                    ChatMessage(role: .user, content: "question \(number).\(turn) " + Self.words(number, turn)),
                    ChatMessage(role: .assistant, content: "answer \(number).\(turn) " + Self.words(turn, number)),
                ]
            }
            let stored = try #require(await store.begin(Conversation(settings: settings), storing: messages))
            ids.append(stored.id)
        }
        if checkpoint {
            let db = try SQLiteConnection(path: path)
            try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        return ids
    }

    /// About 400 bytes of text that differ from message to message.
    private static func words(_ a: Int, _ b: Int) -> String {
        (0..<60).map { "w\(($0 * 7 + a * 13 + b * 31) % 97)" }.joined(separator: " ")
    }

    /// Overwrites `count` bytes at `offset` of `file` with `byte`.
    func overwrite(_ file: String, at offset: Int, count: Int, with byte: UInt8 = 0x5A) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: file))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(offset))
        try handle.write(contentsOf: Data(repeating: byte, count: count))
    }

    /// A leaf page of the message table (read from its root page: an interior table page whose
    /// cells each begin with a child's page number).
    func messageLeafPage() throws -> Int {
        let db = try SQLiteConnection(path: path)
        let root = try #require(
            try db.firstRow("SELECT rootpage FROM sqlite_master WHERE name = 'message'") {
                row throws(StorageError) in try row.column(0, as: Int.self)
            })
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let page = Array(bytes[(root - 1) * 4096..<root * 4096])
        #expect(page[0] == 0x05, "the message table spans more than one page")
        let cells = Int(page[3]) << 8 | Int(page[4])
        let pointer = 12 + 2 * (cells / 2)
        let cell = Int(page[pointer]) << 8 | Int(page[pointer + 1])
        return page[cell..<cell + 4].reduce(0) { $0 << 8 | Int($1) }
    }

    /// The files in the data directory whose names start with `prefix`.
    func files(startingWith prefix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(prefix) }.sorted()
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: root)
    }
}

/// A history database damaged as a bad disk, a sync tool or a careless copy leaves it: detected,
/// set aside, salvaged row by row, said once; every later run just works.
@Suite("A damaged history", .timeLimit(.minutes(2)))
struct DamagedHistoryTests {
    @Test func aHeaderOverwrittenIsSetAsideAndEverythingIsReadBackThroughARebuiltHeader() async throws {
        let fixture = try DamagedHistoryFixture()
        defer { fixture.remove() }
        let ids = try await fixture.fill()
        let original = try Data(contentsOf: URL(fileURLWithPath: fixture.path))
        try fixture.overwrite(fixture.path, at: 0, count: 100, with: 0)

        let notices = Notices()
        let store = try await fixture.open(notices)
        let salvage = try #require(notices.salvages.first)
        #expect(notices.all.count == 1)
        #expect(salvage.recovered == 30 && salvage.partlyRecovered == 0 && salvage.unreadable == 0)
        // The damaged file is kept, as it was, beside the new one, with its WAL and shared memory.
        let aside = try fixture.files(startingWith: "history.sqlite.damaged-")
        #expect(aside.count == 3)
        #expect(salvage.damagedPath == fixture.directory.file(aside[0]))
        #expect(aside[0].range(of: #"^history\.sqlite\.damaged-\d{8}-\d{6}$"#, options: .regularExpression) != nil)
        #expect(aside.dropFirst() == [aside[0] + "-shm", aside[0] + "-wal"])
        var damaged = original
        damaged.replaceSubrange(0..<100, with: Data(count: 100))
        #expect(try Data(contentsOf: URL(fileURLWithPath: salvage.damagedPath)) == damaged)

        let listed = try await store.list(limit: nil, includingUnanswered: true).get()
        #expect(Set(listed.summaries.map(\.id)) == Set(ids))
        let first = try await store.load(ids[0]).get()
        #expect(first.messages.count == 10)
        #expect(first.messages.first?.content.hasPrefix("question 0.0 ") == true)
        #expect(try await store.search("answer 29.4", limit: nil, includingUnanswered: true).get().summaries.count == 1)

        // The next run just works, and says nothing.
        let later = Notices()
        #expect(try await fixture.open(later).list(limit: 100).get().count == 30)
        #expect(later.all.isEmpty)
    }

    @Test func aPageOfTheMessageTableOverwrittenIsFoundAtTheFirstReadAndEveryOtherRowIsKept() async throws {
        let fixture = try DamagedHistoryFixture()
        defer { fixture.remove() }
        let ids = try await fixture.fill()
        let leaf = try fixture.messageLeafPage()
        try fixture.overwrite(fixture.path, at: (leaf - 1) * 4096, count: 4096)

        // The damaged page is not read while the database opens: the first read meets it.
        let notices = Notices()
        let store = try await fixture.open(notices)
        #expect(notices.all.isEmpty)
        let listed = try await store.list(limit: nil, includingUnanswered: true).get()

        let salvage = try #require(notices.salvages.first)
        #expect(notices.all.count == 1)
        #expect(salvage.partlyRecovered >= 1)
        #expect(salvage.recovered + salvage.partlyRecovered == 30)
        #expect(salvage.unreadable == 0)
        #expect(Set(listed.summaries.map(\.id)) == Set(ids))
        // Every message not on that page is there, in its conversation, in order.
        var messages = 0
        var whole = 0
        for id in ids {
            let conversation = try await store.load(id).get()
            messages += conversation.messages.count
            if conversation.messages.count == 10 { whole += 1 }
            let numbers = conversation.messages.compactMap(\.storageID)
            #expect(numbers == numbers.sorted())
        }
        #expect(whole == salvage.recovered)
        #expect(messages < 300 && messages > 280)
        // The new database is whole, and new messages get ids no lost one had.
        let check = try SQLiteConnection(path: fixture.path)
        #expect(
            try check.firstRow("PRAGMA integrity_check") { row throws(StorageError) in
                try row.column(0, as: String.self)
            } == "ok")
        let next = try #require(
            await store.append(
                ChatMessage(role: .user, content: "after"), settings: fixture.settings, systemPrompt: nil, to: ids[0]))
        #expect(next > 300)
    }

    @Test func aWALCutMidFrameLosesOnlyItsLastCommitAndIsNoDamage() async throws {
        let fixture = try DamagedHistoryFixture()
        defer { fixture.remove() }
        let ids = try await fixture.fill(conversations: 6, checkpoint: false)
        let wal = fixture.path + "-wal"
        let size = try #require(try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int)
        #expect(size > 32 + 4096)
        try FileManager.default.copyItem(atPath: wal, toPath: wal + ".whole")
        let handle = try #require(FileHandle(forUpdatingAtPath: wal))
        try handle.truncate(atOffset: UInt64(size - 2000))
        try handle.close()

        let notices = Notices()
        let store = try await fixture.open(notices)
        let listed = try await store.list(limit: nil, includingUnanswered: true).get().summaries.map(\.id)
        #expect(notices.all.isEmpty)
        #expect(try fixture.files(startingWith: "history.sqlite.damaged").isEmpty)
        #expect(Set(listed) == Set(ids.dropLast()))
        for id in ids.dropLast() { #expect(try await store.load(id).get().messages.count == 10) }
    }

    @Test func aFileThatIsNotSQLiteIsSetAsideAndANewHistoryStarts() async throws {
        let fixture = try DamagedHistoryFixture()
        defer { fixture.remove() }
        #expect(fixture.directory.prepare())
        let garbage = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        #expect(FileManager.default.createFile(atPath: fixture.path, contents: garbage))

        let notices = Notices()
        let store = try await fixture.open(notices)
        #expect(
            notices.all == [
                .salvaged(
                    HistorySalvage(
                        damagedPath: try #require(notices.salvages.first?.damagedPath), recovered: 0,
                        partlyRecovered: 0, unreadable: 0))
            ])
        #expect(try Data(contentsOf: URL(fileURLWithPath: try #require(notices.salvages.first).damagedPath)) == garbage)
        let id = try #require(await store.begin(Conversation(settings: fixture.settings)))
        _ = await store.append(
            ChatMessage(role: .user, content: "a new start"), settings: fixture.settings, systemPrompt: nil, to: id)
        #expect(try await store.load(id).get().messages.map(\.content) == ["a new start"])
        let later = Notices()
        _ = try await fixture.open(later)
        #expect(later.all.isEmpty)
    }

    @Test func aFileOfZeroLengthIsAnEmptyHistoryNotDamage() async throws {
        let fixture = try DamagedHistoryFixture()
        defer { fixture.remove() }
        #expect(fixture.directory.prepare())
        #expect(FileManager.default.createFile(atPath: fixture.path, contents: Data()))
        let notices = Notices()
        let store = try await fixture.open(notices)
        #expect(try await store.list(limit: 10).get().isEmpty)
        #expect(notices.all.isEmpty)
        #expect(try fixture.files(startingWith: "history.sqlite.damaged").isEmpty)
    }

    @Test func aDamagedSearchIndexIsMadeAgainFromTheMessages() async throws {
        let fixture = try DamagedHistoryFixture()
        defer { fixture.remove() }
        let ids = try await fixture.fill(conversations: 4)
        let notices = Notices()
        let store = try await fixture.open(notices)
        #expect(try await store.search("answer 2.1", limit: nil, includingUnanswered: true).get().summaries.count == 1)
        // The index's segments overwritten with bytes whose offsets all point past the page, which
        // SQLite always calls damage (random bytes sometimes read as an empty page: no error, no
        // hits). The tables are whole, the index is not.
        try SQLiteConnection(path: fixture.path).run(
            "UPDATE message_fts_data SET block = CAST(printf('%.*c', length(block), 'x') AS BLOB) WHERE id > 10")

        let found = try await store.search("answer 3.4", limit: nil, includingUnanswered: true).get()
        #expect(found.summaries.map(\.id) == [ids[3]])
        // Changing an indexed message (its index entry too) works again.
        let message = try #require(try await store.load(ids[0]).get().messages.last)
        await store.update(
            ChatMessage(role: .assistant, content: "a new ibex answer"), id: try #require(message.storageID))
        #expect(try await store.search("ibex", limit: 5).get().map(\.id) == [ids[0]])
        #expect(notices.all.isEmpty)
        #expect(try fixture.files(startingWith: "history.sqlite.damaged").isEmpty)
    }

    @Test func aWriteThatMeetsDamageIsStoredInTheSalvagedHistory() async throws {
        let fixture = try DamagedHistoryFixture()
        defer { fixture.remove() }
        let ids = try await fixture.fill(conversations: 12)
        let notices = Notices()
        let store = try await fixture.open(notices)
        // Damaged while the store is open, as by another program.
        let db = try SQLiteConnection(path: fixture.path)
        let root = try #require(
            try db.firstRow("SELECT rootpage FROM sqlite_master WHERE name = 'conversation'") {
                row throws(StorageError) in try row.column(0, as: Int.self)
            })
        try fixture.overwrite(fixture.path, at: (root - 1) * 4096, count: 4096)

        let id = try #require(await store.begin(Conversation(settings: fixture.settings)))
        let stored = await store.append(
            ChatMessage(role: .user, content: "kept through it"), settings: fixture.settings, systemPrompt: nil, to: id)
        #expect(try #require(stored) > 0)
        #expect(notices.salvages.count == 1)
        #expect(try await store.load(id).get().messages.map(\.content) == ["kept through it"])
        // The conversations' own rows were on the page: their messages are kept, under ids of
        // their own, each titled after its first question.
        let listed = try await store.list(limit: nil, includingUnanswered: true).get().summaries
        #expect(Set(ids).isSubset(of: Set(listed.map(\.id))))
        #expect(listed.first { $0.id == ids[3] }?.title.hasPrefix("question 3.0") == true)
    }
}
