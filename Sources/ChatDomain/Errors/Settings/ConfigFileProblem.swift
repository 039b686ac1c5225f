/// What is wrong with a config file.
public enum ConfigFileProblem: Sendable, Equatable {
    /// It does not exist, though it was given (`--config`).
    case missing
    /// It cannot be read; the reason as the system gives it.
    case unreadable(reason: String)
    /// One of its keys.
    case issue(ConfigIssue)
    /// The API key source a level names cannot give a key; `profile` names the level (nil: the
    /// top level).
    case keySource(profile: String?, KeySourceProblem)
}
