/// One request for an answer: the messages to send and how.
public struct ChatRequest: Sendable, Equatable {
    /// The messages, system prompt first.
    public var messages: [ChatMessage]
    /// Model and sampling settings.
    public var settings: ChatSettings
    /// The tools the model may call; none, usually.
    public var tools: [ToolDefinition]

    /// Creates a request.
    public init(messages: [ChatMessage], settings: ChatSettings, tools: [ToolDefinition] = []) {
        self.messages = messages
        self.settings = settings
        self.tools = tools
    }
}
