import ChatDomain

/// The `compaction` table: the summaries that stand for a conversation's first messages.
enum CompactionRows {
    /// Stores a summary of conversation `conversationID`'s messages up to and including row
    /// `through`, written by the model `settings` name (the name asked for, as an answer's row has it).
    static func insert(
        conversationID: String, through: Int64, summary: String, settings: ChatSettings, usage: TokenUsage?,
        at: Double, _ db: SQLiteConnection
    ) throws(StorageError) {
        try db.run(
            """
            INSERT INTO compaction (conversation_id, through_id, summary, model, provider, prompt_tokens,
                completion_tokens, cost_usd, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                conversationID, through, summary, settings.model, settings.provider,
                usage?.promptTokens, usage?.completionTokens, usage?.costUSD, at,
            ])
    }

    /// The newest compaction of `conversationID` that ends at one of `messages` (the branch
    /// shown, in order), as it stands for them; nil when there is none.
    static func newest(of conversationID: String, over messages: [ChatMessage], _ db: SQLiteConnection)
        throws(StorageError) -> Compaction?
    {
        let rows = try db.rows(
            "SELECT through_id, summary FROM compaction WHERE conversation_id = ? ORDER BY id DESC", [conversationID]
        ) { row throws(StorageError) in (try row.column(0, as: Int64.self), try row.column(1, as: String.self)) }
        guard !rows.isEmpty else { return nil }
        for (through, summary) in rows {
            if let index = messages.firstIndex(where: { $0.storageID == through }) {
                return Compaction(summary: summary, coveredMessages: index + 1)
            }
        }
        return nil
    }
}
