/// A tool offered to the model: its name, what it does, and the JSON Schema of its arguments.
public struct ToolDefinition: Sendable, Equatable {
    /// The name the model calls it by (unique among the tools offered).
    public var name: String
    /// What it does, for the model.
    public var description: String
    /// The JSON Schema its arguments must match (an object schema).
    public var parameters: JSONValue

    /// Creates a tool definition.
    public init(name: String, description: String, parameters: JSONValue) {
        self.name = name
        self.description = description
        self.parameters = parameters
    }
}
