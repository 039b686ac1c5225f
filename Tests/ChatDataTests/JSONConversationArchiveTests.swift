import ChatDomain
import Foundation
import Testing

@testable import ChatHistory

/// A file that is not a saved conversation is named as such, with its format when it has one.
@Suite struct JSONConversationArchiveTests {
    private func withFile(_ text: String, _ body: (String) throws -> Void) throws {
        let path = "/tmp/chat-archive-tests-\(UUID().uuidString).json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(path)
    }

    private func loadError(_ path: String) -> StorageError? {
        do {
            _ = try JSONConversationArchive(home: nil).load(from: path)
            return nil
        } catch {
            return error
        }
    }

    @Test func aFileThatIsNoConversationIsNotAConversation() throws {
        try withFile("hello") { path in
            #expect(loadError(path) == .notAConversation(path: path, format: nil))
        }
    }

    @Test func aFileOfAnotherFormatNamesItsFormat() throws {
        try withFile(#"{"format":"other","version":1,"model":"m","messages":[]}"#) { path in
            #expect(loadError(path) == .notAConversation(path: path, format: "other"))
        }
    }

    @Test func aMissingFileIsSaidToBeMissing() {
        #expect(
            loadError("/tmp/chat-archive-tests-none.json") == .missingFile(path: "/tmp/chat-archive-tests-none.json"))
    }
}
