/// How the history database failed: what was being done, what kind of failure it was, and
/// SQLite's (or the system's) own reason.
public struct DatabaseFailure: Error, Sendable, Equatable {
    /// What was being done.
    public enum Step: Sendable, Equatable {
        /// Creating the data directory at this path.
        case creatingDirectory(String)
        /// Making the data directory at this path private (0700, this user's).
        case securingDirectory(String)
        /// Opening (creating, migrating) the database file at this path.
        case opening(String)
        /// Reading or writing the open database.
        case using
    }

    /// What kind of failure it was, as far as it matters to what chat does next.
    public enum Kind: Sendable, Equatable {
        /// The file is damaged, or is not a database at all.
        case damaged
        /// The disk (or the file system's quota) is full.
        case full
        /// Another process holds the database's lock, longer than chat waits.
        case locked
        /// The file or its directory may not be written, or read.
        case denied
        /// Anything else.
        case other
    }

    public var step: Step
    public var kind: Kind
    public var reason: String

    /// A failure while `step`, of `kind`, for `reason`.
    public init(_ step: Step = .using, kind: Kind = .other, reason: String) {
        self.step = step
        self.kind = kind
        self.reason = reason
    }
}
