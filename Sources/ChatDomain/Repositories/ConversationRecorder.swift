/// Keeps every conversation as it happens, so none is ever lost: the role a history store
/// plays for the use case. Failures to store are the implementation's to report; the chat
/// goes on either way. A store may keep what it could not write and write it later: the ids it
/// returns then stand for rows to come, and later calls may use them. Calls may wait for the
/// store, never block the caller's thread.
public protocol ConversationRecorder: Sendable {
    /// Stores a new conversation (no messages yet) and returns its short id.
    func begin(_ conversation: Conversation) async -> String?
    /// Stores a new conversation with its first `messages` (`append`'s), in one go where the
    /// store can: its short id and the messages' row ids (nil if they were not stored), or nil
    /// if the conversation could not be stored.
    func begin(_ conversation: Conversation, storing messages: [ChatMessage]) async
        -> (id: String, messageIDs: [Int64]?)?
    /// Stores `messages` at the end of conversation `conversationID`; returns their row ids in
    /// order, or nil if they could not all be stored (a store with transactions stores none then).
    func append(
        contentsOf messages: [ChatMessage], settings: ChatSettings, systemPrompt: String?, to conversationID: String
    ) async -> [Int64]?
    /// Replaces a stored message's text, state, reasoning and usage.
    func update(_ message: ChatMessage, id: Int64) async
    /// Removes stored messages, and those that branch off them (`/undo`): only the person's
    /// own actions remove anything.
    func remove(ids: [Int64]) async
    /// Starts a new branch of conversation `conversationID` after message `messageID` (nil:
    /// before its first): what is stored next follows that message, and the messages that
    /// followed it stay stored, on a branch of their own (`/retry`, `/edit N`).
    func branch(_ conversationID: String, after messageID: Int64?) async
    /// Starts storing an answer of conversation `conversationID` while it streams. The recorder
    /// decides when to write what has arrived (so a crash loses little of it) and stores the
    /// answer as it ended at `finish`.
    func recordAnswer(to conversationID: String, settings: ChatSettings, systemPrompt: String?) -> any AnswerRecording
    /// Stores `compaction` of conversation `conversationID`: its summary stands for the messages
    /// up to and including row `messageID`; the model `settings` name wrote it, with `usage`.
    func compacted(
        _ compaction: Compaction, through messageID: Int64, settings: ChatSettings, usage: TokenUsage?,
        of conversationID: String
    ) async
}

extension ConversationRecorder {
    /// `begin`, then `append` of `messages`: two writes.
    public func begin(_ conversation: Conversation, storing messages: [ChatMessage]) async
        -> (id: String, messageIDs: [Int64]?)?
    {
        guard let id = await begin(conversation) else { return nil }
        let ids = await append(
            contentsOf: messages, settings: conversation.settings, systemPrompt: conversation.systemPrompt, to: id)
        return (id, ids)
    }

    /// Stores `message` at the end of conversation `conversationID`; returns its row id.
    public func append(
        _ message: ChatMessage, settings: ChatSettings, systemPrompt: String?, to conversationID: String
    ) async -> Int64? {
        await append(contentsOf: [message], settings: settings, systemPrompt: systemPrompt, to: conversationID)?.first
    }
}
