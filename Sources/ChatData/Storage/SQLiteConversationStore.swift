import ChatDomain

/// The history: every conversation in a SQLite database (WAL mode), written as it happens.
/// Several `chat` processes may write at once; a busy timeout and a lock around creation and
/// migration keep them from failing with "database is locked".
///
/// The recorder's side is here, the history's (`ConversationHistory`) in
/// `SQLiteConversationStore+History`; every use of the database runs on the store's
/// `HistoryQueue`, never on the caller's thread.
public final class SQLiteConversationStore: ConversationRecorder, ConversationHistory {
    let queue: HistoryQueue
    /// How often a streaming answer is stored at least.
    let checkpointInterval: Duration

    /// Opens (creating and migrating if needed) `history.sqlite` in `directory`. `report` hears
    /// about a failed write, once: the chat goes on.
    public static func open(
        in directory: DataDirectory, checkpointInterval: Duration = .seconds(1),
        report: @escaping @Sendable (HistoryNotice) -> Void
    ) async -> Result<SQLiteConversationStore, StorageError> {
        let store = openInBackground(in: directory, checkpointInterval: checkpointInterval, report: report)
        let error = await store.queue.openingFailure
        return error.map { .failure($0) } ?? .success(store)
    }

    /// Starts opening the history and returns at once; every use comes after it. Why: opening
    /// reads the database and its WAL, a few milliseconds that can pass while the request is on
    /// its way. If it fails, `report` hears why at the first write (once) and nothing is stored;
    /// reads fail with the reason.
    public static func openInBackground(
        in directory: DataDirectory, checkpointInterval: Duration = .seconds(1),
        report: @escaping @Sendable (HistoryNotice) -> Void
    ) -> SQLiteConversationStore {
        SQLiteConversationStore(
            queue: HistoryQueue(connect: { HistoryOpening.connect(in: directory) }, report: report),
            checkpointInterval: checkpointInterval)
    }

    private init(queue: HistoryQueue, checkpointInterval: Duration) {
        self.queue = queue
        self.checkpointInterval = checkpointInterval
    }

    // MARK: - ConversationRecorder

    public func begin(_ conversation: Conversation) async -> String? {
        await queue.write { db throws(StorageError) in try MessageRows.insert(conversation, db) }
    }

    /// The conversation and its first messages in one transaction: one commit, and the
    /// conversation's pages written once, not in each of two (a one-shot waits for it before
    /// reading the answer).
    public func begin(_ conversation: Conversation, storing messages: [ChatMessage]) async
        -> (id: String, messageIDs: [Int64]?)?
    {
        await queue.write { db throws(StorageError) -> (id: String, messageIDs: [Int64]?) in
            let id = try MessageRows.insert(conversation, db)
            guard !messages.isEmpty else { return (id, []) }
            let ids = try MessageRows.insert(
                messages, settings: conversation.settings, systemPrompt: conversation.systemPrompt, into: id, db)
            return (id, ids)
        }
    }

    /// All of `messages` in one transaction (a `/load`ed conversation of a thousand turns is
    /// stored at once, not in two thousand commits).
    public func append(
        contentsOf messages: [ChatMessage], settings: ChatSettings, systemPrompt: String?, to conversationID: String
    ) async -> [Int64]? {
        guard !messages.isEmpty else { return [] }
        return await queue.write { db throws(StorageError) in
            try MessageRows.insert(messages, settings: settings, systemPrompt: systemPrompt, into: conversationID, db)
        }
    }

    public func update(_ message: ChatMessage, id: Int64) async {
        _ = await queue.write { db throws(StorageError) -> Bool in
            try MessageRows.update(message, id: id, db)
            return true
        }
    }

    public func remove(ids: [Int64]) async {
        guard !ids.isEmpty else { return }
        _ = await queue.write { db throws(StorageError) -> Bool in
            for id in ids { try db.run("DELETE FROM message WHERE id = ?", [id]) }
            return true
        }
    }

    public func recordAnswer(to conversationID: String, settings: ChatSettings, systemPrompt: String?)
        -> any AnswerRecording
    {
        CheckpointedAnswerRecording(
            queue: queue, conversationID: conversationID, settings: settings, systemPrompt: systemPrompt,
            interval: checkpointInterval)
    }
}
