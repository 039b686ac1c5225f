/// A model's request to run a tool, as part of its answer.
public struct ToolCall: Sendable, Equatable {
    /// The provider's id for the call; its result names it.
    public var id: String
    /// The tool's name, as the model was told it.
    public var name: String
    /// The arguments the model gave: a JSON object. Text the model sent that is not JSON is kept
    /// as a string value, which no tool takes.
    public var arguments: JSONValue

    /// Creates a tool call.
    public init(id: String, name: String, arguments: JSONValue) {
        self.id = id
        self.name = name
        self.arguments = arguments
    }
}
