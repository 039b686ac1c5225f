import ChatDomain
import ChatSystem

/// The history: every conversation in a SQLite database (WAL mode), written as it happens.
/// Several `chat` processes may write at once; a busy timeout and a lock around creation and
/// migration keep them from failing with "database is locked". What cannot be written is kept
/// in memory and written with the next write that succeeds; a damaged database is set aside and
/// salvaged (`HistoryQueue`).
///
/// The recorder's side is here, the history's (`ConversationHistory`) in
/// `SQLiteConversationStore+History`; every use of the database runs on the store's
/// `HistoryQueue`, never on the caller's thread.
public final class SQLiteConversationStore: ConversationRecorder, ConversationHistory {
    let queue: HistoryQueue
    /// How often a streaming answer is stored at least.
    let checkpointInterval: Duration

    /// Opens (creating, migrating, or salvaging if needed) `history.sqlite` in `directory`.
    /// `report` hears what the person should know while the chat goes on: a failed write
    /// (once), a damaged database salvaged.
    public static func open(
        in directory: DataDirectory, checkpointInterval: Duration = .seconds(1),
        report: @escaping @Sendable (HistoryNotice) -> Void
    ) async -> Result<SQLiteConversationStore, StorageError> {
        let store = openInBackground(in: directory, checkpointInterval: checkpointInterval, report: report)
        let error = await store.queue.openingError
        return error.map { .failure($0) } ?? .success(store)
    }

    /// Starts opening the history and returns at once; every use comes after it. Why: opening
    /// reads the database and its WAL, a few milliseconds that can pass while the request is on
    /// its way. If it fails, what is to be stored is kept in memory (and opening tried again at
    /// each write); `report` hears why at the first write; reads fail with the reason.
    public static func openInBackground(
        in directory: DataDirectory, checkpointInterval: Duration = .seconds(1),
        report: @escaping @Sendable (HistoryNotice) -> Void
    ) -> SQLiteConversationStore {
        SQLiteConversationStore(
            queue: HistoryQueue(directory: directory, report: report), checkpointInterval: checkpointInterval)
    }

    private init(queue: HistoryQueue, checkpointInterval: Duration) {
        self.queue = queue
        self.checkpointInterval = checkpointInterval
    }

    // MARK: - ConversationRecorder

    /// Stores a new conversation; its id, whether or not it could be written yet.
    public func begin(_ conversation: Conversation) async -> String? {
        await begin(conversation, storing: [])?.id
    }

    /// The conversation and its first messages in one transaction: one commit, and the
    /// conversation's pages written once, not in each of two (a one-shot waits for it before
    /// reading the answer).
    public func begin(_ conversation: Conversation, storing messages: [ChatMessage]) async
        -> (id: String, messageIDs: [Int64]?)?
    {
        let settings = (conversation.settings, conversation.systemPrompt, conversation.title ?? "")
        let branchedFrom = conversation.branchedFrom
        let begun = await queue.onQueue { [queue] in
            let id = queue.unusedConversationID()
            let now = WallClock.now()
            var writes: [PendingWrites.Write] = [
                .conversation(id: id, title: settings.2, branchedFrom: branchedFrom, at: now)
            ]
            if !messages.isEmpty {
                let batch = MessageBatch(
                    conversationID: id, messages: messages, settings: settings.0, systemPrompt: settings.1, at: now)
                writes.append(.messages(batch, ids: []))
            }
            let stored = queue.storeNow(writes, patience: .short).last ?? []
            // The next job: what the answer's last write needs, while the answer is on its way.
            queue.prepareAnswerWrite()
            return Begun(id: id, messageIDs: stored)
        }
        return (begun.id, begun.messageIDs)
    }

    /// What `begin` hands back from the queue: a struct, not the tuple it returns, whose type
    /// metadata (an optional tuple with labels) was made at run time on every one-shot
    /// (docs/PERFORMANCE.md, round 17).
    private struct Begun: Sendable {
        let id: String
        let messageIDs: [Int64]
    }

    /// All of `messages` in one transaction (a `/load`ed conversation of a thousand turns is
    /// stored at once, not in two thousand commits). Their row ids, provisional (negative)
    /// while they could not be written.
    public func append(
        contentsOf messages: [ChatMessage], settings: ChatSettings, systemPrompt: String?, to conversationID: String
    ) async -> [Int64]? {
        guard !messages.isEmpty else { return [] }
        let batch = MessageBatch(
            conversationID: conversationID, messages: messages, settings: settings, systemPrompt: systemPrompt,
            at: WallClock.now())
        let ids = await queue.store([.messages(batch, ids: [])], patience: .short).first
        queue.prepareAnswerWrite()
        return ids
    }

    public func update(_ message: ChatMessage, id: Int64) async {
        _ = await queue.store([.update(message, id: id, at: WallClock.now())], patience: .long)
    }

    public func remove(ids: [Int64]) async {
        guard !ids.isEmpty else { return }
        _ = await queue.store([.remove(ids)], patience: .long)
    }

    public func compacted(
        _ compaction: Compaction, through messageID: Int64, settings: ChatSettings, usage: TokenUsage?,
        of conversationID: String
    ) async {
        _ = await queue.store(
            [
                .compaction(
                    conversationID: conversationID, through: messageID, summary: compaction.summary, settings: settings,
                    usage: usage, at: WallClock.now())
            ], patience: .long)
    }

    public func recordAnswer(to conversationID: String, settings: ChatSettings, systemPrompt: String?)
        -> any AnswerRecording
    {
        CheckpointedAnswerRecording(
            queue: queue, conversationID: conversationID, settings: settings, systemPrompt: systemPrompt,
            interval: checkpointInterval)
    }
}
