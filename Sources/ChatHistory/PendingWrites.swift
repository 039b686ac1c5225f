import ChatDomain

/// What the history has been asked to store and has not stored yet, in order: kept in memory
/// while writes fail (a full disk, a lock held too long, a database that cannot be opened) and
/// stored, all in one transaction and in the order asked, at the next write that succeeds.
///
/// Messages get their row ids when stored. Until then each has a provisional one (negative)
/// that later writes (an update, a removal) may use; once stored, the provisional id stands
/// for the real one.
struct PendingWrites {
    /// One write, as it was asked for.
    enum Write {
        /// A new conversation, under an id chosen already, and where it branched off another.
        case conversation(id: String, title: String, branchedFrom: BranchPoint?, at: Double)
        /// Messages at the end of a conversation, with their provisional ids.
        case messages(MessageBatch, ids: [Int64])
        /// A stored message's new text, state, reasoning, usage and tool calls.
        case update(ChatMessage, id: Int64, at: Double)
        /// Messages removed.
        case remove([Int64])
        /// What is stored next in a conversation follows this message (nil: none).
        case branch(conversationID: String, after: Int64?)
        /// A summary that stands for a conversation's messages up to and including `through`.
        case compaction(
            conversationID: String, through: Int64, summary: String, settings: ChatSettings, usage: TokenUsage?,
            at: Double)
        /// A few more messages into the search index (`SearchIndex.keepUp`), with an answer's
        /// last write.
        case searchIndex
    }

    private(set) var writes: [Write] = []
    private var nextProvisionalID: Int64 = -1
    /// The row ids of stored messages that were given provisional ones.
    private var stored = ProvisionalRowIDs()

    var isEmpty: Bool { writes.isEmpty }

    /// Messages with no row yet, or whose row does not hold their last update.
    var messageCount: Int {
        var inserted = 0
        var updated = Set<Int64>()
        for write in writes {
            switch write {
            case .messages(let batch, _): inserted += batch.messages.count
            case .update(_, let id, _) where id > 0: updated.insert(id)
            case .conversation, .update, .remove, .branch, .searchIndex, .compaction: break
            }
        }
        return inserted + updated.count
    }

    /// Adds `write`; returns the provisional ids of the messages it adds (none for other writes).
    /// An update of a message not stored yet changes the pending insert instead; an update
    /// right after another of the same message replaces it.
    mutating func add(_ write: Write) -> [Int64] {
        switch write {
        case .messages(let batch, _):
            let ids = batch.messages.indices.map { _ in nextProvisional() }
            writes.append(.messages(batch, ids: ids))
            return ids
        case .update(let message, let id, let at):
            if merge(message, into: id, at: at) { return [] }
            writes.append(write)
        case .remove(let ids):
            // Messages not stored yet are taken out of their pending insert instead.
            let stored = ids.filter { !unstore($0) }
            if !stored.isEmpty { writes.append(.remove(stored)) }
        case .searchIndex:
            // Once is enough: it indexes what is stored by then.
            if case .searchIndex = writes.last { return [] }
            writes.append(write)
        case .conversation, .branch, .compaction:
            writes.append(write)
        }
        return []
    }

    /// Takes message `id` out of the pending insert that holds it; false if none does.
    private mutating func unstore(_ id: Int64) -> Bool {
        for index in writes.indices {
            guard case .messages(var batch, var ids) = writes[index], let row = ids.firstIndex(of: id) else {
                continue
            }
            batch.messages.remove(at: row)
            ids.remove(at: row)
            writes[index] = .messages(batch, ids: ids)
            return true
        }
        return false
    }

    /// The stored row id for `id` (itself when it is not provisional); nil while not stored.
    func rowID(for id: Int64) -> Int64? {
        id > 0 ? id : stored[id]
    }

    /// Stores every write, in order, through `db`, in the caller's transaction: returns the row
    /// ids the messages got, by provisional id, for `markStored` once the transaction commits.
    func store(_ db: SQLiteConnection) throws(StorageError) -> ProvisionalRowIDs {
        var assigned = ProvisionalRowIDs()
        func row(_ id: Int64) -> Int64? { id > 0 ? id : stored[id] ?? assigned[id] }
        // A conversation inserted by the write just before, with its title from the messages
        // that follow it (a one-shot's question): their insert reads no head and sets no title.
        var inserted: String?
        for index in writes.indices {
            let insertedJustBefore = inserted
            inserted = nil
            switch writes[index] {
            case .conversation(let id, var title, var branchedFrom, let at):
                if let messageID = branchedFrom?.messageID { branchedFrom?.messageID = row(messageID) }
                if index + 1 < writes.count, case .messages(let batch, _) = writes[index + 1],
                    batch.conversationID == id
                {
                    title = MessageRows.title(title, for: batch.messages)
                    inserted = id
                }
                try MessageRows.insertConversation(id: id, title: title, branchedFrom: branchedFrom, at: at, db)
            case .messages(let batch, let ids):
                let rows =
                    try MessageRows.insert(
                        batch, intoNewConversation: insertedJustBefore == batch.conversationID, db) ?? []
                for offset in 0..<min(ids.count, rows.count) { assigned.set(rows[offset], for: ids[offset]) }
            case .update(let message, let id, let at):
                if let id = row(id) { try MessageRows.update(message, id: id, at: at, db) }
            case .remove(let ids):
                try MessageRows.remove(ids.compactMap(row), db)
            case .branch(let conversationID, let after):
                try MessageRows.setHead(of: conversationID, to: after.flatMap(row), db)
            case .searchIndex:
                try SearchIndex.keepUp(db)
            case .compaction(let conversationID, let through, let summary, let settings, let usage, let at):
                if let through = row(through) {
                    try CompactionRows.insert(
                        conversationID: conversationID, through: through, summary: summary, settings: settings,
                        usage: usage,
                        at: at, db)
                }
            }
        }
        return assigned
    }

    /// After the transaction `store` ran in committed: nothing is pending any more.
    mutating func markStored(_ assigned: ProvisionalRowIDs) {
        stored.merge(assigned)
        writes.removeAll()
    }

    private mutating func nextProvisional() -> Int64 {
        defer { nextProvisionalID -= 1 }
        return nextProvisionalID
    }

    /// Puts an update of message `id` into the pending write that holds it; false if none does.
    private mutating func merge(_ message: ChatMessage, into id: Int64, at: Double) -> Bool {
        for index in writes.indices.reversed() {
            switch writes[index] {
            case .messages(var batch, let ids):
                guard let row = ids.firstIndex(of: id) else { continue }
                batch.messages[row].takeUpdate(from: message)
                writes[index] = .messages(batch, ids: ids)
                return true
            case .update(_, let updated, _) where updated == id:
                // Only the last write may be replaced: one after it may depend on it.
                guard index == writes.count - 1 else { return false }
                writes[index] = .update(message, id: id, at: at)
                return true
            case .conversation, .update, .remove, .branch, .searchIndex, .compaction:
                continue
            }
        }
        return false
    }
}

/// Messages to be stored at the end of a conversation, with what is stored beside each.
struct MessageBatch {
    var conversationID: String
    var messages: [ChatMessage]
    var settings: ChatSettings
    var systemPrompt: String?
    /// When they were asked to be stored.
    var at: Double
}

extension ChatMessage {
    /// Takes what an update stores: the text, state, reasoning and usage, and the tool calls an
    /// answer ends with.
    fileprivate mutating func takeUpdate(from update: ChatMessage) {
        if StoredPartDTO.needsParts(update) {
            self = ChatMessage(
                role: role, parts: update.parts, state: update.state, reasoning: update.reasoning,
                usage: update.usage, storageID: storageID)
            return
        }
        content = update.content
        state = update.state
        reasoning = update.reasoning
        usage = update.usage
    }
}
