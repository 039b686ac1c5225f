/// Keeps every conversation as it happens, so none is ever lost: the role a history store
/// plays for the use case. Failures to store are the implementation's to report; the chat
/// goes on either way.
public protocol ConversationRecorder: Sendable {
    /// Stores a new conversation (no messages yet) and returns its short id.
    func begin(_ conversation: Conversation) -> String?
    /// Stores `message` at the end of conversation `conversationID`; returns its row id.
    func append(_ message: ChatMessage, settings: ChatSettings, systemPrompt: String?, to conversationID: String)
        -> Int64?
    /// Stores `messages` at the end of conversation `conversationID`; returns their row ids in
    /// order, or nil if they could not all be stored (a store with transactions stores none then).
    func append(
        contentsOf messages: [ChatMessage], settings: ChatSettings, systemPrompt: String?, to conversationID: String
    ) -> [Int64]?
    /// Replaces a stored message's text, state, reasoning and usage (a streaming checkpoint, or
    /// the final answer).
    func update(_ message: ChatMessage, id: Int64)
    /// Removes stored messages (`/undo`, `/retry`): only the person's own actions remove anything.
    func remove(ids: [Int64])
}

extension ConversationRecorder {
    /// One `append` per message, stopping at the first that fails (those before it stay stored);
    /// a store that can do better (one transaction, all or none) implements its own.
    public func append(
        contentsOf messages: [ChatMessage], settings: ChatSettings, systemPrompt: String?, to conversationID: String
    ) -> [Int64]? {
        var ids: [Int64] = []
        for message in messages {
            guard let id = append(message, settings: settings, systemPrompt: systemPrompt, to: conversationID) else {
                return nil
            }
            ids.append(id)
        }
        return ids
    }
}
