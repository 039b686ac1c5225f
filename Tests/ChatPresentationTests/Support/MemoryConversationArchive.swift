import ChatDomain
import Synchronization

/// A `ConversationArchive` that keeps conversations in memory, keyed by path.
final class MemoryConversationArchive: ConversationArchive {
    private let files = Mutex<[String: Conversation]>([:])

    init() {}

    /// What was saved, by path.
    var saved: [String: Conversation] { files.withLock { $0 } }

    func save(_ conversation: Conversation, to path: String) throws(StorageError) {
        files.withLock { $0[path] = conversation }
    }

    func load(from path: String) throws(StorageError) -> Conversation {
        guard let conversation = files.withLock({ $0[path] }) else {
            throw StorageError.missingFile(path: path)
        }
        return conversation
    }
}
