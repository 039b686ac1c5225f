import ChatDomain
import ChatTestSupport
import Foundation
import Synchronization
import Testing

@testable import ChatHistory
@testable import ChatSystem

private final class Notices: Sendable {
    private let items = Mutex<[HistoryNotice]>([])
    func add(_ notice: HistoryNotice) { items.withLock { $0.append(notice) } }
    var all: [HistoryNotice] { items.withLock { $0 } }
}

/// A full disk loses no conversation that can still be stored: the conversation goes on in
/// memory, and as soon as a write succeeds again, every message not yet stored is stored, in
/// order. On a real (small) file system.
@Suite(
    "A full disk", .timeLimit(.minutes(1)), .serialized,
    .enabled(
        if: SmallFileSystem.available,
        "needs root, to mount a small tmpfs and fill it (run the tests as root to try a full disk)"))
struct FullDiskHistoryTests {
    @Test func whatIsSaidWhileTheDiskIsFullIsStoredInOrderOnceThereIsRoomAgain() async throws {
        let disk = try SmallFileSystem(kilobytes: 1024)
        let directory = try #require(DataDirectory(environment: ["XDG_DATA_HOME": disk.path, "HOME": "/nonexistent"]))
        let notices = Notices()
        let store = try await SQLiteConversationStore.open(
            in: directory, checkpointInterval: .zero, report: { notices.add($0) }
        ).get()
        let settings = ChatSettings(model: "m")
        let before = try #require(
            await store.begin(
                Conversation(settings: settings),
                storing: [ChatMessage(role: .user, content: "before"), ChatMessage(role: .assistant, content: "ok")]))

        let filler = disk.fill()
        // A new conversation, a question, and an answer streamed, all while the disk is full.
        let id = try #require(await store.begin(Conversation(settings: settings)))
        let question = String(repeating: "a question that needs room ", count: 200)
        let questionID = try #require(
            await store.append(
                ChatMessage(role: .user, content: question), settings: settings, systemPrompt: nil, to: id))
        #expect(questionID < 0)
        let recording = store.recordAnswer(to: id, settings: settings, systemPrompt: nil)
        for piece in ["the answer ", "goes on ", "in memory"] {
            recording.add(.text(piece))
            try await Task.sleep(for: .milliseconds(20))
        }
        let answer = await recording.finish(ChatMessage(role: .assistant, content: "the answer goes on in memory"))
        #expect((answer.storageID ?? 0) < 0)

        #expect(notices.all.count == 1)
        guard case .notStored(let failure)? = notices.all.first else {
            Issue.record("the first failed write is reported")
            return
        }
        #expect(failure.kind == .full)
        // What was stored before can still be read.
        #expect(try await store.load(before.id).get().messages.map(\.content) == ["before", "ok"])
        #expect(await store.unstored()?.count == 2)

        // Room again: the next write stores everything, in order.
        #expect(unlink(filler) == 0)
        let next = try #require(
            await store.append(
                ChatMessage(role: .user, content: "and then"), settings: settings, systemPrompt: nil, to: id))
        #expect(next > 0)
        let stored = try await store.load(id).get().messages
        #expect(stored.map(\.content) == [question, "the answer goes on in memory", "and then"])
        #expect(stored.map(\.role) == [.user, .assistant, .user])
        #expect(stored.map(\.state) == [.complete, .complete, .complete])
        #expect(await store.unstored() == nil)
        #expect(notices.all.count == 1)
        let check = try SQLiteConnection(path: directory.file("history.sqlite"))
        #expect(
            try check.firstRow("PRAGMA integrity_check") { row throws(StorageError) in
                try row.column(0, as: String.self)
            } == "ok")
    }

    @Test func aRunThatEndsWhileTheDiskIsFullSaysHowManyMessagesAreNotStored() async throws {
        let disk = try SmallFileSystem(kilobytes: 1024)
        let directory = try #require(DataDirectory(environment: ["XDG_DATA_HOME": disk.path, "HOME": "/nonexistent"]))
        let store = try await SQLiteConversationStore.open(in: directory, report: { _ in }).get()
        let settings = ChatSettings(model: "m")
        _ = disk.fill()
        let stored = try #require(
            await store.begin(
                Conversation(settings: settings),
                storing: [
                    ChatMessage(role: .user, content: String(repeating: "x", count: 9000)),
                    ChatMessage(role: .assistant, content: "y"),
                ]))
        #expect(stored.messageIDs?.allSatisfy { $0 < 0 } == true)
        let unstored = try #require(await store.unstored())
        #expect(unstored.count == 2)
        #expect(unstored.failure.kind == .full)
    }
}
