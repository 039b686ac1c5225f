/// What is wrong with a key of a config file, or with the file as JSON.
public enum ConfigProblem: Sendable, Equatable {
    /// Not JSON: where, and what the parser found there.
    case notJSON(line: Int, column: Int, problem: String)
    /// A value of another type than the key takes.
    case wrongType(expected: ConfigExpectation, got: JSONKind)
    /// A number outside the key's range.
    case numberOutOfRange(ClosedRange<Double>, got: Double)
    /// A number that is not a whole number of at least `minimum` (or is too large).
    case notAWholeNumber(minimum: Int, got: Double)
    /// A word the key does not take; the words it takes.
    case notOneOf([String], got: String)
    /// A key a level does not hold; the nearest known one, if near enough, and every known key.
    case unknownKey(nearest: String?, known: [String])
    /// A key a role does not hold; the keys a role holds.
    case unknownRoleKey(known: [String])
    /// More than one source for the API key in one level.
    case severalKeySources([String])
    /// A role of its own (not adding to a built-in one) without a prompt.
    case roleNeedsPrompt
    /// An object without these keys, which it needs.
    case missingKeys([String])
}
