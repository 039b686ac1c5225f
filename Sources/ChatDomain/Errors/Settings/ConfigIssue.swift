/// What is wrong with one key of a config file.
public struct ConfigIssue: Error, Sendable, Equatable {
    /// The key's path, e.g. `profiles.local.temperature`; `(file)` for the file as a whole.
    public var key: String
    /// What is wrong.
    public var problem: ConfigProblem

    /// The issue of `key`.
    public init(key: String, problem: ConfigProblem) {
        self.key = key
        self.problem = problem
    }
}
