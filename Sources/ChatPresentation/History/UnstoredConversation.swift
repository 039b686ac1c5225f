import ChatDomain

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What becomes of a conversation the history could not store by the end of a run (a full disk,
/// a history that cannot be written): kept whole in a file of its own in the temporary
/// directory, as `/save` writes it, so `/load` goes on with it.
public struct UnstoredConversation {
    private let history: any ConversationHistory
    private let archive: any ConversationArchive
    private let directory: String

    /// Keeps conversations with `archive` in `temporaryDirectory` (`$TMPDIR`; /tmp when unset).
    public init(history: any ConversationHistory, archive: any ConversationArchive, temporaryDirectory: String?) {
        self.history = history
        self.archive = archive
        let directory = temporaryDirectory.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        self.directory = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
    }

    /// Tries once more to store what is not stored; when messages still are not, keeps
    /// `conversation` in a file and returns the line that says so (nil when all is stored).
    public func keep(_ conversation: Conversation) async -> String? {
        guard let unstored = await history.unstored() else { return nil }
        let path = freePath(for: conversation)
        do {
            try archive.save(conversation, to: path)
            return ErrorWording.unstoredLine(unstored, keptIn: path, fileFailure: nil)
        } catch {
            let reason: String
            if case .file(_, _, let systemReason) = error {
                reason = systemReason
            } else {
                reason = ErrorWording.line(for: error)
            }
            return ErrorWording.unstoredLine(unstored, keptIn: nil, fileFailure: "\(directory): \(reason)")
        }
    }

    /// `chat-unstored-ID.json` (or `…-2.json`, and so on, past one that is there).
    private func freePath(for conversation: Conversation) -> String {
        let stem = directory + "/chat-unstored-" + (conversation.id ?? "conversation")
        var path = stem + ".json"
        var number = 2
        while access(path, F_OK) == 0 {
            path = stem + "-\(number).json"
            number += 1
        }
        return path
    }
}
