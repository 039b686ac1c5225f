import ChatDomain

/// The rows of the history's `message` and `conversation` tables as chat writes them: a new
/// conversation, messages stored in bulk, a message's update or removal.
enum MessageRows {
    /// Inserts a conversation (no messages) under `id`; `branchedFrom` names the one it
    /// branched off, if any.
    static func insertConversation(
        id: String, title: String, branchedFrom: BranchPoint?, at time: Double, _ db: SQLiteConnection
    ) throws(StorageError) {
        try db.run(
            """
            INSERT INTO conversation (id, title, created_at, updated_at, parent_id, branched_from, branch_turn)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [id, title, time, time, branchedFrom?.conversationID, branchedFrom?.messageID, branchedFrom?.turn])
    }

    /// The title a new conversation is inserted with when `messages` are stored with it:
    /// `title`, or when it has none, the one its first question gives it (as `insert` would).
    static func title(_ title: String, for messages: [ChatMessage]) -> String {
        guard title.isEmpty, let question = messages.first(where: { $0.role == .user }) else { return title }
        return ConversationTitle.make(from: question.content)
    }

    /// A conversation id no stored conversation has (as far as `db` can tell, if it can be read).
    static func unusedConversationID(_ db: SQLiteConnection?) -> String {
        guard let db else { return ConversationID.make() }
        for _ in 0..<20 {
            let id = ConversationID.make()
            if (try? conversationExists(id, db)) != true { return id }
        }
        return ConversationID.make()
    }

    /// Whether conversation `id` is stored.
    static func conversationExists(_ id: String, _ db: SQLiteConnection) throws(StorageError) -> Bool {
        try db.firstRow("SELECT 1 FROM conversation WHERE id = ?", [id]) { _ throws(StorageError) in true } != nil
    }

    /// Inserts the batch's messages in one go, many rows per `INSERT`, each following the one
    /// before it and the first following the conversation's head (they become the end of the
    /// branch shown); returns their row ids, or nil when the conversation is not stored (it was
    /// deleted meanwhile, by `chat --delete` elsewhere: it takes no more). The full-text index
    /// takes them in at the next search (`SearchIndex`), not here. `intoNewConversation`: the
    /// conversation was inserted in this transaction, titled already (`title(_:for:)`), with no
    /// message for the first to follow, so neither is read or written again.
    static func insert(_ batch: MessageBatch, intoNewConversation: Bool = false, _ db: SQLiteConnection)
        throws(StorageError) -> [Int64]?
    {
        let messages = batch.messages
        let parent: Int64
        if intoNewConversation {
            parent = 0
        } else {
            guard let head = try head(of: batch.conversationID, db) else { return nil }
            parent = head
        }
        guard !messages.isEmpty else { return [] }
        let storedSettings = json(StoredSettingsDTO(batch.settings))
        // Many rows (a `/load`ed conversation) touch many pages of the table and its index:
        // with the usual 256 KiB cache they are written out and read back again within the
        // transaction. A larger cache for this one write, given back after.
        let bulk = messages.count > rowsPerInsert
        if bulk { try HistoryOpening.setCache(db, bulk: true) }
        defer { if bulk { try? HistoryOpening.setCache(db, bulk: false) } }
        var ids: [Int64] = []
        ids.reserveCapacity(messages.count)
        // One statement for every full batch of rows (parsing a long INSERT costs about as much
        // as running it), and one for the rest.
        var full: SQLiteStatement?
        var start = 0
        while start < messages.count {
            let rows = messages[start..<min(start + rowsPerInsert, messages.count)]
            let insert: SQLiteStatement
            if rows.count == rowsPerInsert, let full {
                insert = full
            } else {
                // Kept for one row (every answer) and a full batch; the rest's size varies.
                insert = try db.statement(
                    insertSQL(rows: rows.count), keep: rows.count == 1 || rows.count == rowsPerInsert)
                if rows.count == rowsPerInsert { full = insert }
            }
            var arguments = SQLiteArguments(capacity: rows.count * 19)
            for offset in rows.indices {
                let message = rows[offset]
                arguments.append(batch.conversationID)
                arguments.append(message.role.rawValue)
                arguments.append(searchableText(message))
                arguments.append(message.state.rawValue)
                arguments.append(message.reasoning)
                arguments.append(batch.settings.model)
                arguments.append(batch.systemPrompt)
                arguments.append(storedSettings)
                arguments.append(message.usage?.promptTokens)
                arguments.append(message.usage?.completionTokens)
                arguments.append(message.usage?.totalTokens)
                arguments.append(batch.at)
                arguments.append(batch.at)
                arguments.append(StoredImageDTO.column(message.images))
                // The first follows the head; the others, the one before, set below.
                arguments.append(offset == 0 ? parent : nil)
                arguments.append(StoredPartDTO.column(message))
                arguments.append(message.usage?.costUSD)
                arguments.append(message.answeredBy?.profile)
                arguments.append(message.resumed ? 1 : nil)
            }
            try insert.run(arguments)
            // One INSERT in a write transaction numbers its rows one after another, in the
            // order listed (AUTOINCREMENT): the last id tells them all. (`RETURNING` would
            // need SQLite 3.35.)
            let last = db.lastInsertedRowID
            ids += (last - Int64(rows.count) + 1)...last
            start += rows.count
        }
        try FetchedFiles.store(messages, db)
        if let first = ids.first, let last = ids.last, last > first {
            try db.run("UPDATE message SET parent_id = id - 1 WHERE id > ? AND id <= ?", [first, last])
        }
        // A conversation is titled after its first question.
        if !intoNewConversation, let question = messages.first(where: { $0.role == .user }) {
            try db.run(
                "UPDATE conversation SET title = ? WHERE id = ? AND title = ''",
                [ConversationTitle.make(from: question.content), batch.conversationID])
        }
        let answered = messages.contains { $0.role == .assistant }
        try db.run(touchConversation, [batch.at, ids.last, answered ? 1 : 0, batch.conversationID])
        return ids
    }

    /// The statements that store one more message in a stored conversation (`insert`, an
    /// answer's last write), for `SQLiteConnection.prepare` to prepare ahead.
    static var appendStatements: [String] { [headQuery, insertSQL(rows: 1), touchConversation] }

    private static let headQuery =
        "SELECT head_id, (SELECT MAX(id) FROM message WHERE conversation_id = c.id) FROM conversation c WHERE id = ?"
    private static let touchConversation =
        "UPDATE conversation SET updated_at = ?, head_id = ?, answered = answered OR ? WHERE id = ?"

    /// The message what is stored next in a conversation follows: the end of the branch it
    /// shows (`BranchTree.head`; 0: none, the next starts a branch); nil when there is no such
    /// conversation. Usually the head is the newest message (one plain query); otherwise (a
    /// branch shown that is not the newest, rows an older release added) `headSQL` decides.
    private static func head(of conversationID: String, _ db: SQLiteConnection) throws(StorageError) -> Int64? {
        let found = try db.firstRow(headQuery, [conversationID]) { row throws(StorageError) in
            (try row.column(0, as: Int64?.self), try row.column(1, as: Int64?.self))
        }
        guard let (stored, newest) = found else { return nil }
        if stored == newest || stored == 0 { return stored ?? 0 }
        return try db.firstRow("SELECT \(BranchTree.headSQL) FROM conversation c WHERE id = ?", [conversationID]) {
            row throws(StorageError) in try row.column(0, as: Int64.self)
        } ?? 0
    }

    /// Makes message `messageID` (nil: none, the next starts a branch of its own) the end of
    /// the branch conversation `conversationID` shows.
    static func setHead(of conversationID: String, to messageID: Int64?, _ db: SQLiteConnection) throws(StorageError) {
        try db.run("UPDATE conversation SET head_id = ?, branched = 1 WHERE id = ?", [messageID ?? 0, conversationID])
    }

    /// Replaces a stored message's text, state, reasoning and usage, and its tool calls (an
    /// answer's come as it ends).
    static func update(_ message: ChatMessage, id: Int64, at time: Double, _ db: SQLiteConnection)
        throws(StorageError)
    {
        try db.run(
            """
            UPDATE message SET content = ?, state = ?, reasoning = ?, prompt_tokens = ?,
                completion_tokens = ?, total_tokens = ?, updated_at = ?, parts = ?, cost_usd = ?,
                answered_by = IFNULL(?, answered_by), resumed = ? WHERE id = ?
            """,
            [
                searchableText(message), message.state.rawValue, message.reasoning, message.usage?.promptTokens,
                message.usage?.completionTokens, message.usage?.totalTokens, time, StoredPartDTO.column(message),
                message.usage?.costUSD, message.answeredBy?.profile, message.resumed ? 1 : nil, id,
            ])
        let conversation = try db.firstRow("SELECT conversation_id FROM message WHERE id = ?", [id]) {
            row throws(StorageError) in try row.column(0, as: String.self)
        }
        if let conversation { try touch(db, conversation, time) }
    }

    /// Removes stored messages and every message that follows them, on any branch; a branch
    /// shown that ended among them ends where they began.
    static func remove(_ ids: [Int64], _ db: SQLiteConnection) throws(StorageError) {
        guard !ids.isEmpty else { return }
        // One `?` per id: SQL made for this one use, not kept.
        let conversations = try db.rows(
            "SELECT DISTINCT conversation_id FROM message WHERE id IN (\(ids.map { _ in "?" }.joined(separator: ", ")))",
            ids, keep: false
        ) { row throws(StorageError) in try row.column(0, as: String.self) }
        for conversation in conversations {
            let tree = try BranchTree.read(conversation, db)
            let removed = ids.reduce(into: Set<Int64>()) { $0.formUnion(tree.descendants(of: $1)) }
            for id in removed.sorted(by: >) { try db.run("DELETE FROM message WHERE id = ?", [id]) }
            let stored = try db.firstRow("SELECT head_id FROM conversation WHERE id = ?", [conversation]) {
                row throws(StorageError) in try row.column(0, as: Int64?.self)
            }
            if let head = tree.head(stored: stored ?? nil), removed.contains(head) {
                try setHead(of: conversation, to: tree.nearest(to: head, outside: removed), db)
            }
        }
        try FetchedFiles.removeUnnamed(db)
    }

    /// `settings` as the `settings` column holds it.
    static func json(_ settings: StoredSettingsDTO) -> String {
        settings.jsonBytes.map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// What the `content` column holds of `message`: its text; for an answer that calls tools,
    /// then a line naming each tool (`[tool call: time__get_current_time]`), so `--search`
    /// finds the tools used. The full-text index reads this column; a tool's results are not
    /// in it (they can be long, and are kept whole in `parts` only).
    static func searchableText(_ message: ChatMessage) -> String {
        guard message.hasToolCalls else { return message.content }
        var text = message.content
        for call in message.toolCalls {
            if !text.isEmpty { text += "\n" }
            text += "[tool call: \(call.name)]"
        }
        return text
    }

    /// 52 rows of 19 values: under the 999 bound values SQLite allowed before 3.32.
    private static let rowsPerInsert = 52

    /// An INSERT of `rows` messages.
    private static func insertSQL(rows: Int) -> String {
        let values = Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: rows)
        return """
            INSERT INTO message (conversation_id, role, content, state, reasoning, model, system_prompt, settings,
                prompt_tokens, completion_tokens, total_tokens, created_at, updated_at, images, parent_id, parts,
                cost_usd, answered_by, resumed)
            VALUES \(values.joined(separator: ", "))
            """
    }

    private static func touch(_ db: SQLiteConnection, _ id: String, _ time: Double) throws(StorageError) {
        try db.run("UPDATE conversation SET updated_at = ? WHERE id = ?", [time, id])
    }
}
