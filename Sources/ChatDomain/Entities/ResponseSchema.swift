/// The JSON an answer must be (`--schema`): a JSON Schema, with the name the request gives it.
/// Sent with each request of the conversation it belongs to, and stored with it.
public struct ResponseSchema: Sendable, Equatable {
    /// The schema's name in the request (letters, digits, `_` and `-`).
    public var name: String
    /// The JSON Schema itself (an object).
    public var schema: JSONValue

    /// A schema named `name`.
    public init(name: String = "response", schema: JSONValue) {
        self.name = name
        self.schema = schema
    }
}
