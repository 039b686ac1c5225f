/// Why a file cannot be read.
public enum FileProblem: Sendable, Equatable {
    /// It does not exist.
    case missing
    /// The reason as the system gives it.
    case unreadable(reason: String)
}
