/// Why stored conversations could not be written, read or found.
public enum StorageError: Error, Sendable, Equatable {
    /// A conversation file (`/save`, `/load`) could not be used; the text names the file.
    case file(String)
    /// No stored conversation has an id starting with this.
    case notFound(id: String)
    /// Several stored conversations have ids starting with this.
    case ambiguous(id: String, matches: [String])
    /// The history database failed.
    case database(String)
}

extension StorageError: CustomStringConvertible {
    /// One line for the person.
    public var description: String {
        switch self {
        case .file(let message): return message
        case .notFound(let id): return "no conversation \(id) (chat --list shows them)"
        case .ambiguous(let id, let matches):
            return "\(id) could be \(matches.prefix(5).joined(separator: ", ")); give more of the id"
        case .database(let message): return "history: \(message)"
        }
    }
}
