import ChatDomain

/// The history's side of the store: listing, searching, loading, deleting and renaming.
extension SQLiteConversationStore {
    public func list(limit: Int?, includingUnanswered: Bool) async -> Result<ConversationListing, StorageError> {
        await queue.read { db throws(StorageError) in
            try ConversationQueries.listing(
                db, where: "1", arguments: [], limit: limit, includingUnanswered: includingUnanswered)
        }
    }

    /// The answers stored since `since` (seconds since 1970), by model, provider and UTC day,
    /// newest day first: how many, their tokens and what they cost; the summaries of
    /// compactions count in tokens and cost, not as answers.
    public func spending(since: Double) async -> Result<[SpendingRow], StorageError> {
        await queue.read { db throws(StorageError) in
            try db.rows(
                // The answers added up as `message_spending_day` holds them (in the groups' order,
                // so nothing is sorted but the groups), then the compactions' few beside them.
                // The day's name is made once a group, not once a row.
                """
                SELECT model, IFNULL(provider, 'openai'), strftime('%Y-%m-%d', day * 86400, 'unixepoch'),
                    SUM(answers), IFNULL(SUM(input), 0), IFNULL(SUM(output), 0), SUM(cost), SUM(unknown)
                FROM (
                    SELECT CAST(created_at / 86400 AS INTEGER) AS day, model,
                        json_extract(settings, '$.provider') AS provider, COUNT(*) AS answers,
                        SUM(prompt_tokens) AS input, SUM(completion_tokens) AS output, SUM(cost_usd) AS cost,
                        COUNT(*) - COUNT(cost_usd) AS unknown
                    FROM message
                    WHERE role = 'assistant' AND CAST(created_at / 86400 AS INTEGER) >= ?2 AND created_at >= ?1
                    GROUP BY 1, 2, 3
                    UNION ALL
                    SELECT CAST(created_at / 86400 AS INTEGER), model, provider, 0, SUM(prompt_tokens),
                        SUM(completion_tokens), SUM(cost_usd), COUNT(*) - COUNT(cost_usd)
                    FROM compaction WHERE created_at >= ?1
                    GROUP BY 1, 2, 3)
                GROUP BY day, model, IFNULL(provider, 'openai') ORDER BY day DESC, model, IFNULL(provider, 'openai')
                """, [since, Int64((min(max(since, 0), 1e15) / 86_400).rounded(.down))]
            ) { row throws(StorageError) in
                SpendingRow(
                    model: try row.column(0), provider: try row.column(1), day: try row.column(2),
                    answers: try row.column(3), inputTokens: try row.column(4), outputTokens: try row.column(5),
                    costUSD: try row.column(6, as: Double?.self), unknownCost: try row.column(7))
            }
        }
    }

    public func search(_ text: String, limit: Int?, includingUnanswered: Bool) async
        -> Result<ConversationListing, StorageError>
    {
        guard !ConversationQueries.matchQuery(text).isEmpty else {
            return .success(ConversationListing(summaries: []))
        }
        if case .failure(let error) = await catchUpSearchIndex() { return .failure(error) }
        return await queue.read { db throws(StorageError) in
            try ConversationQueries.search(db, text, limit: limit, includingUnanswered: includingUnanswered)
        }
    }

    /// Indexes the messages stored since the last search (`SearchIndex`); a write only when
    /// there are some.
    private func catchUpSearchIndex() async -> Result<Void, StorageError> {
        await queue.onQueue { [queue] in
            switch queue.transactionNow(writing: false, patience: .long, SearchIndex.isBehind) {
            case .success(false): return .success(())
            case .success(true): return queue.transactionNow(writing: true, patience: .long, SearchIndex.catchUp)
            case .failure(let error): return .failure(error)
            }
        }
    }

    public func mostRecentlyUsed(answeredOnly: Bool) async -> Result<Conversation?, StorageError> {
        await queue.read { db throws(StorageError) in
            try ConversationQueries.mostRecentlyUsed(db, answeredOnly: answeredOnly)
        }
    }

    public func load(_ id: String) async -> Result<Conversation, StorageError> {
        await queue.read { db throws(StorageError) in
            try ConversationQueries.conversation(db, id: try ConversationQueries.resolve(db, id))
        }
    }

    public func delete(_ id: String) async -> Result<ConversationSummary, StorageError> {
        await queue.writeResult { db throws(StorageError) in
            let full = try ConversationQueries.resolve(db, id)
            let summary = try ConversationQueries.summaries(db, where: "c.id = ?", arguments: [full], limit: 1)
            try db.run("DELETE FROM compaction WHERE conversation_id = ?", [full])
            try db.run("DELETE FROM message WHERE conversation_id = ?", [full])
            try db.run("DELETE FROM conversation WHERE id = ?", [full])
            try FetchedFiles.removeUnnamed(db)
            guard let first = summary.first else { throw StorageError.notFound(id: id) }
            return first
        }
    }

    public func rename(_ id: String, title: String) async -> Result<Void, StorageError> {
        await queue.writeResult { db throws(StorageError) in
            let full = try ConversationQueries.resolve(db, id)
            try db.run("UPDATE conversation SET title = ? WHERE id = ?", [title, full])
        }
    }

    public func unstored() async -> UnstoredMessages? {
        await queue.unstored()
    }

    public func branch(_ conversationID: String, after messageID: Int64?) async {
        _ = await queue.store([.branch(conversationID: conversationID, after: messageID)], patience: .long)
    }

    public func alternatives(to messageID: Int64) async -> Result<[ChatMessage], StorageError> {
        await queue.afterPending(writing: false, resolving: messageID) { db, row throws(StorageError) in
            guard let row else { return [] }
            return try ConversationQueries.alternatives(to: row, db)
        }
    }

    public func showBranch(through messageID: Int64, of conversationID: String) async
        -> Result<Conversation, StorageError>
    {
        await queue.afterPending(writing: true, resolving: messageID) { db, row throws(StorageError) in
            guard let row else { throw StorageError.notFound(id: conversationID) }
            return try ConversationQueries.showBranch(through: row, of: conversationID, db)
        }
    }
}
