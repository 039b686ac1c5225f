/// An ordered exchange of messages with a system prompt and the settings it is sent with.
public struct Conversation: Sendable, Equatable {
    /// Instructions sent first in every request; nil or empty sends none.
    public var systemPrompt: String?
    /// What was said, in order, failed and interrupted turns included.
    public private(set) var messages: [ChatMessage]
    /// Model and sampling settings.
    public var settings: ChatSettings

    /// Creates a conversation.
    public init(systemPrompt: String? = nil, settings: ChatSettings, messages: [ChatMessage] = []) {
        self.systemPrompt = systemPrompt
        self.settings = settings
        self.messages = messages
    }

    /// The messages a request carries: the system prompt, then every turn except user messages
    /// whose request failed with no answer, and except empty answers.
    public var requestMessages: [ChatMessage] {
        var result: [ChatMessage] = []
        if let systemPrompt, !systemPrompt.isEmpty {
            result.append(ChatMessage(role: .system, content: systemPrompt))
        }
        for message in messages where message.state != .failed {
            if message.role == .assistant && message.content.isEmpty { continue }
            result.append(message)
        }
        return result
    }

    /// Number of user messages that got an answer, whole or partial.
    public var turnCount: Int {
        messages.count { $0.role == .assistant }
    }

    /// Usage reported for the most recent answer that has it.
    public var lastUsage: TokenUsage? {
        messages.last { $0.usage != nil }?.usage
    }

    /// Appends a message.
    public mutating func append(_ message: ChatMessage) {
        messages.append(message)
    }

    /// Marks the last message's state, e.g. a user message whose request failed.
    public mutating func markLast(_ state: MessageState) {
        guard !messages.isEmpty else { return }
        messages[messages.count - 1].state = state
    }

    /// Removes and returns the last message, if any.
    @discardableResult
    public mutating func removeLast() -> ChatMessage? {
        messages.popLast()
    }

    /// Removes the last exchange: the last user message and everything after it. Returns
    /// whether there was one.
    @discardableResult
    public mutating func removeLastExchange() -> Bool {
        guard let index = messages.lastIndex(where: { $0.role == .user }) else { return false }
        messages.removeSubrange(index...)
        return true
    }

    /// A rough token count for text with no usage figures yet: about four characters a token.
    public var estimatedTokens: Int {
        let characters = (systemPrompt?.count ?? 0) + messages.reduce(0) { $0 + $1.content.count }
        return (characters + 3) / 4
    }

    /// Forgets every message; the system prompt and settings stay.
    public mutating func clear() {
        messages.removeAll()
    }
}
