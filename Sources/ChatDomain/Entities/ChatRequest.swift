/// One request for an answer: the messages to send and how.
public struct ChatRequest: Sendable, Equatable {
    /// The messages, system prompt first.
    public var messages: [ChatMessage]
    /// Model and sampling settings.
    public var settings: ChatSettings

    /// Creates a request.
    public init(messages: [ChatMessage], settings: ChatSettings) {
        self.messages = messages
        self.settings = settings
    }
}
