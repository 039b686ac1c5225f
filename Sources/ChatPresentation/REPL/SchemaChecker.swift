import ChatDomain

/// Reads a response schema from what the person typed, and checks an answer against one: the
/// JSON parsing is the Data layer's, handed in by the executable.
public protocol SchemaChecker: Sendable {
    /// The schema `text` gives: a JSON Schema file, inline JSON, or the concise form.
    func schema(_ text: String) throws(SchemaProblem) -> ResponseSchema
    /// The first place `answer` does not match `schema`; nil when it matches.
    func firstMismatch(inAnswer answer: String, against schema: ResponseSchema) -> SchemaMismatch?
}
