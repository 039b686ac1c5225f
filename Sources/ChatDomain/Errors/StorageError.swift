/// Why stored conversations could not be written, read or found: the facts, which
/// Presentation's `ErrorWording` puts into words.
public enum StorageError: Error, Sendable, Equatable {
    /// The conversation file at `path` could not be read or written; `reason` is the system's.
    case file(path: String, operation: FileOperation, reason: String)
    /// There is no file at `path`.
    case missingFile(path: String)
    /// The conversation file at `path` was written by a newer chat, in format `version`.
    case newerFile(path: String, version: Int)
    /// Message `message` (from 1) of a conversation file has a role chat does not know.
    case unknownRole(message: Int, role: String)
    /// The conversation could not be encoded as a file; `reason` is the encoder's.
    case unencodable(reason: String)
    /// The file at `path` is not a conversation file: not one at all (`format` nil), or one of
    /// another format.
    case notAConversation(path: String, format: String?)
    /// No stored conversation has an id starting with this.
    case notFound(id: String)
    /// Several stored conversations have ids starting with this.
    case ambiguous(id: String, matches: [String])
    /// The history database failed.
    case database(DatabaseFailure)

    /// What was being done to a conversation file.
    public enum FileOperation: Sendable, Equatable {
        case read
        case write
    }
}
