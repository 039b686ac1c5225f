/// A tool offered to the model: its name, what it does, and the JSON Schema of its arguments;
/// where it comes from, and whether it runs without asking.
public struct ToolDefinition: Sendable, Equatable {
    /// The name the model calls it by (unique among the tools offered).
    public var name: String
    /// What it does, for the model.
    public var description: String
    /// The JSON Schema its arguments must match (an object schema).
    public var parameters: JSONValue
    /// The server that offers it, and the server's own name for it; nil for a tool of no server.
    public var origin: ToolOrigin?
    /// Whether a call runs without asking (`auto_approve`, `--yes-tools`).
    public var isPreApproved: Bool

    /// Creates a tool definition.
    public init(
        name: String, description: String, parameters: JSONValue, origin: ToolOrigin? = nil,
        isPreApproved: Bool = false
    ) {
        self.name = name
        self.description = description
        self.parameters = parameters
        self.origin = origin
        self.isPreApproved = isPreApproved
    }
}
