/// A prompt fetched from its server (MCP `prompts/get`): its messages, text and images.
public struct ToolServerPromptMessages: Sendable, Equatable {
    public var description: String?
    /// The messages, `user` and `assistant`, in order.
    public var messages: [ChatMessage]

    public init(description: String? = nil, messages: [ChatMessage]) {
        self.description = description
        self.messages = messages
    }
}
