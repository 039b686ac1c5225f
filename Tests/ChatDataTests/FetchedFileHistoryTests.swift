import ChatDomain
import Foundation
import Testing

@testable import ChatHistory
@testable import ChatSystem

/// The bytes of files fetched from URLs in the history (schema v12): kept once per SHA-256
/// however many messages carry them, read back with the conversation, removed with the last
/// message that names them, and copied by a salvage; a file from disk is still kept by its path
/// and hash only.
@Suite(.timeLimit(.minutes(1)))
struct FetchedFileHistoryTests {
    let root = NSTemporaryDirectory() + "chat-fetched-\(UUID().uuidString)"
    let settings = ChatSettings(model: "model-a")
    let pdf = Array("%PDF-1.4\nfetched bytes\n%%EOF\n".utf8)

    private func directory() throws -> DataDirectory {
        try #require(DataDirectory(environment: ["XDG_DATA_HOME": root, "HOME": "/nonexistent"]))
    }

    private func open() async throws -> SQLiteConversationStore {
        try await SQLiteConversationStore.open(in: try directory(), report: { _ in }).get()
    }

    private func keptFiles(_ path: String) throws -> [String] {
        try SQLiteConnection(path: path).rows("SELECT sha256 FROM fetched_file ORDER BY sha256") {
            row throws(StorageError) in try row.column(0, as: String.self)
        }
    }

    private func question(_ text: String, _ images: [ImageAttachment]) -> ChatMessage {
        ChatMessage(role: .user, content: text, images: images)
    }

    @Test func aFetchedFileIsKeptOnceReadBackAndRemovedWithTheLastMessageThatNamesIt() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try await open()
        let path = try directory().file("history.sqlite")
        let fetched = ImageFile.attachment(
            path: "https://example.test/report.pdf", mimeType: ImageAttachment.pdfMimeType, bytes: pdf, fetched: true)
        // A file on disk (gone by now): kept by its path and hash, not its bytes.
        let onDisk = ImageFile.attachment(path: root + "/gone.png", mimeType: "image/png", bytes: [0x89, 0x50])
        let first = try #require(
            await store.begin(Conversation(settings: settings), storing: [question("one", [fetched, onDisk])]))
        let second = try #require(
            await store.begin(Conversation(settings: settings), storing: [question("two", [fetched])]))
        #expect(try keptFiles(path) == [fetched.sha256])

        let loaded = try await store.load(first.id).get().messages[0].images
        #expect(loaded.map(\.data) == [pdf, nil])
        #expect(loaded.map(\.fetched) == [true, false])
        #expect(loaded[0].fileName == "report.pdf")

        _ = try await store.delete(first.id).get()
        #expect(try keptFiles(path) == [fetched.sha256])
        #expect(try await store.load(second.id).get().messages[0].images.first?.data == pdf)
        _ = try await store.delete(second.id).get()
        #expect(try keptFiles(path).isEmpty)
    }

    @Test func aSalvageCopiesTheFetchedFiles() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try await open()
        let fetched = ImageFile.attachment(
            path: "https://example.test/", mimeType: ImageAttachment.pdfMimeType, bytes: pdf, fetched: true)
        _ = try #require(await store.begin(Conversation(settings: settings), storing: [question("q", [fetched])]))
        let path = try directory().file("history.sqlite")
        try SQLiteConnection(path: path).execute("PRAGMA wal_checkpoint(TRUNCATE)")

        let copy = root + "/copy.sqlite"
        let db = try SQLiteConnection(path: copy)
        try HistorySchema.migrate(db)
        let salvage = HistorySalvager.copy(from: path, into: db)
        #expect(salvage.recovered == 1)
        #expect(try keptFiles(copy) == [fetched.sha256])
        #expect(fetched.fileName == "document.pdf")
    }
}
