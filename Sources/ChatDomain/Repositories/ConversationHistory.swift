/// Finds, lists and manages stored conversations: the read side of the history. Calls may wait
/// for the store, never block the caller's thread.
public protocol ConversationHistory: Sendable {
    /// Conversations, most recently used first, at most `limit` (nil: all). Those with no answer
    /// (every request failed before any text) are left out and counted unless
    /// `includingUnanswered`.
    func list(limit: Int?, includingUnanswered: Bool) async -> Result<ConversationListing, StorageError>
    /// Conversations whose messages (either side) hold every word of `text`, or whose title
    /// contains it, most recent first, each with a snippet of where its messages matched; `limit`
    /// and `includingUnanswered` as for `list`.
    func search(_ text: String, limit: Int?, includingUnanswered: Bool) async
        -> Result<ConversationListing, StorageError>
    /// The most recently used conversation (with `answeredOnly`, of those with an answer), with
    /// its messages; nil when there is none.
    func mostRecentlyUsed(answeredOnly: Bool) async -> Result<Conversation?, StorageError>
    /// The conversation whose id starts with `id`, with its messages.
    func load(_ id: String) async -> Result<Conversation, StorageError>
    /// Deletes the conversation whose id starts with `id`; returns what was deleted.
    func delete(_ id: String) async -> Result<ConversationSummary, StorageError>
    /// Sets a conversation's title.
    func rename(_ id: String, title: String) async -> Result<Void, StorageError>
    /// `ConversationRecorder.branch`: what is stored next in conversation `conversationID`
    /// follows message `messageID` (nil: starts before its first).
    func branch(_ conversationID: String, after messageID: Int64?) async
    /// The stored messages that answer (or ask) the same as message `messageID`: it and its
    /// siblings, each the start of a branch, oldest first.
    func alternatives(to messageID: Int64) async -> Result<[ChatMessage], StorageError>
    /// Shows the branch of conversation `conversationID` through message `messageID` (down to
    /// its newest message), from now on; returns the conversation as it now shows.
    func showBranch(through messageID: Int64, of conversationID: String) async -> Result<Conversation, StorageError>
    /// The messages of this run not stored yet (a write failed, and none has succeeded since),
    /// after one more try to store them; nil when everything is stored.
    func unstored() async -> UnstoredMessages?
}

extension ConversationHistory {
    /// Every conversation, answered or not, most recently used first, at most `limit`.
    public func list(limit: Int) async -> Result<[ConversationSummary], StorageError> {
        await list(limit: limit, includingUnanswered: true).map(\.summaries)
    }

    /// Every conversation that matches `text`, answered or not, most recent first, at most `limit`.
    public func search(_ text: String, limit: Int) async -> Result<[ConversationSummary], StorageError> {
        await search(text, limit: limit, includingUnanswered: true).map(\.summaries)
    }

    /// The most recently used conversation, answered or not.
    public func mostRecentlyUsed() async -> Result<Conversation?, StorageError> {
        await mostRecentlyUsed(answeredOnly: false)
    }
}
