/// Why a conversation file could not be written or read.
public struct ArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One line: the file and what went wrong.
    public var description: String

    /// Creates an error with its one-line description.
    public init(_ description: String) {
        self.description = description
    }
}
