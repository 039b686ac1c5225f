/// A prompt a tool server offers (MCP `prompts/list`): a message template the person may fetch.
public struct ToolServerPrompt: Sendable, Equatable {
    /// The server's name in the config.
    public var server: String
    /// The prompt's name, as the server gives it.
    public var name: String
    public var title: String?
    public var description: String?
    /// What it takes, in order.
    public var arguments: [ToolServerPromptArgument]

    public init(
        server: String, name: String, title: String? = nil, description: String? = nil,
        arguments: [ToolServerPromptArgument] = []
    ) {
        self.server = server
        self.name = name
        self.title = title
        self.description = description
        self.arguments = arguments
    }
}
