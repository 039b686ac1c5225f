import ChatDomain

/// The rows of the history's `message` and `conversation` tables as chat writes them: a new
/// conversation, messages stored in bulk, a message's update or removal.
enum MessageRows {
    /// Inserts a conversation (no messages) under `id`.
    static func insertConversation(id: String, title: String, at time: Double, _ db: SQLiteConnection)
        throws(StorageError)
    {
        try db.run(
            "INSERT INTO conversation (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)",
            [id, title, time, time])
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

    /// Inserts the batch's messages in one go, many rows per `INSERT`; returns their row ids.
    /// The full-text index takes them in at the next search (`SearchIndex`), not here.
    static func insert(_ batch: MessageBatch, _ db: SQLiteConnection) throws(StorageError) -> [Int64] {
        let messages = batch.messages
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
                insert = try SQLiteStatement(insertSQL(rows: rows.count), on: db)
                if rows.count == rowsPerInsert { full = insert }
            }
            var arguments = SQLiteArguments(capacity: rows.count * 14)
            for message in rows {
                arguments.append(batch.conversationID)
                arguments.append(message.role.rawValue)
                arguments.append(message.content)
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
            }
            try insert.run(arguments)
            // One INSERT in a write transaction numbers its rows one after another, in the
            // order listed (AUTOINCREMENT): the last id tells them all. (`RETURNING` would
            // need SQLite 3.35.)
            let last = db.lastInsertedRowID
            ids += (last - Int64(rows.count) + 1)...last
            start += rows.count
        }
        // A conversation is titled after its first question.
        if let question = messages.first(where: { $0.role == .user }) {
            try db.run(
                "UPDATE conversation SET title = ? WHERE id = ? AND title = ''",
                [ConversationTitle.make(from: question.content), batch.conversationID])
        }
        try touch(db, batch.conversationID, batch.at)
        return ids
    }

    /// Replaces a stored message's text, state, reasoning and usage.
    static func update(_ message: ChatMessage, id: Int64, at time: Double, _ db: SQLiteConnection)
        throws(StorageError)
    {
        try db.run(
            """
            UPDATE message SET content = ?, state = ?, reasoning = ?, prompt_tokens = ?,
                completion_tokens = ?, total_tokens = ?, updated_at = ? WHERE id = ?
            """,
            [
                message.content, message.state.rawValue, message.reasoning, message.usage?.promptTokens,
                message.usage?.completionTokens, message.usage?.totalTokens, time, id,
            ])
        let conversation = try db.firstRow("SELECT conversation_id FROM message WHERE id = ?", [id]) {
            row throws(StorageError) in try row.column(0, as: String.self)
        }
        if let conversation { try touch(db, conversation, time) }
    }

    /// Removes stored messages.
    static func remove(_ ids: [Int64], _ db: SQLiteConnection) throws(StorageError) {
        for id in ids { try db.run("DELETE FROM message WHERE id = ?", [id]) }
    }

    /// `settings` as the `settings` column holds it.
    static func json(_ settings: StoredSettingsDTO) -> String {
        settings.jsonBytes.map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// 71 rows of 14 values: under the 999 bound values SQLite allowed before 3.32.
    private static let rowsPerInsert = 71

    /// An INSERT of `rows` messages.
    private static func insertSQL(rows: Int) -> String {
        let values = Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: rows)
        return """
            INSERT INTO message (conversation_id, role, content, state, reasoning, model, system_prompt, settings,
                prompt_tokens, completion_tokens, total_tokens, created_at, updated_at, images)
            VALUES \(values.joined(separator: ", "))
            """
    }

    private static func touch(_ db: SQLiteConnection, _ id: String, _ time: Double) throws(StorageError) {
        try db.run("UPDATE conversation SET updated_at = ? WHERE id = ?", [time, id])
    }
}
