/// Why an answer does not match its response schema, as facts: where (a path from `$`, the
/// answer's top: `$.people[2].age`) and what. Presentation words it.
public struct SchemaMismatch: Error, Sendable, Equatable {
    /// What is wrong at `path`.
    public enum Problem: Sendable, Equatable {
        /// The answer is not JSON at all; why, with where.
        case notJSON(String)
        /// The value's type is not one the schema allows (`expected` as the schema names them).
        case type(expected: [String], found: String)
        /// A required member is missing.
        case missing(String)
        /// A member the schema does not allow (`additionalProperties: false`).
        case notAllowed(String)
        /// The value is not one of the schema's `enum` (or its `const`).
        case notOneOf([JSONValue], found: JSONValue)
        /// No alternative of `anyOf` / `oneOf` matched.
        case noAlternative
    }

    /// Where: `$` for the whole answer, `$.name`, `$.items[0]`.
    public var path: String
    /// What.
    public var problem: Problem

    /// A mismatch at `path`.
    public init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }
}
