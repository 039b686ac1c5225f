/// What is wrong with one key of a config file.
struct ConfigIssue: Error, Equatable {
    /// The key's path, e.g. `profiles.local.temperature`.
    var key: String
    /// What was expected or is wrong.
    var problem: String

    var description: String { "\(key): \(problem)" }
}
