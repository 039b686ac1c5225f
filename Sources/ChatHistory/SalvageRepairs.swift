import ChatDomain

/// What a salvage mends in the new database once the rows that could be read are in: a row for
/// each conversation whose own row was lost, branches that named a message that was lost, which
/// conversations have an answer, and message ids that are never handed out again.
enum SalvageRepairs {
    /// The names of `table`'s columns in the database `db` is connected to.
    static func columns(of table: String, _ db: SQLiteConnection) throws(StorageError) -> Set<String> {
        Set(
            try db.rows("PRAGMA table_info(\(table))") { row throws(StorageError) in
                try row.column("name", as: String.self)
            })
    }

    /// Mends what the copy from `damaged` left in `db`: run in the copy's transaction.
    static func apply(_ db: SQLiteConnection, damaged: SQLiteConnection) throws(StorageError) {
        try makeLostConversations(db)
        try mendBranches(db)
        // A conversation copied whole whose answers were not says so again.
        try db.execute(
            """
            UPDATE conversation SET answered = EXISTS (
                SELECT 1 FROM message WHERE conversation_id = conversation.id AND role = 'assistant')
            """)
        try keepIDsUnused(db, damaged: damaged)
    }

    /// A conversation row, titled after its first question, for messages whose conversation's
    /// row could not be read.
    private static func makeLostConversations(_ db: SQLiteConnection) throws(StorageError) {
        let lost = try db.rows(
            """
            SELECT conversation_id, MIN(created_at), MAX(updated_at) FROM message
            WHERE conversation_id NOT IN (SELECT id FROM conversation) GROUP BY conversation_id
            """
        ) { row throws(StorageError) in
            (try row.column(0, as: String.self), try row.column(1, as: Double.self), try row.column(2, as: Double.self))
        }
        for (id, created, updated) in lost {
            let question = try db.firstRow(
                "SELECT content FROM message WHERE conversation_id = ? AND role = 'user' ORDER BY id LIMIT 1", [id]
            ) { row throws(StorageError) in try row.column(0, as: String.self) }
            try db.run(
                "INSERT INTO conversation (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)",
                [id, question.map(ConversationTitle.make(from:)) ?? "", created, updated])
        }
    }

    /// A message whose parent was lost follows the one before it (as a row an older release
    /// added does); a conversation whose head was lost shows its newest message.
    private static func mendBranches(_ db: SQLiteConnection) throws(StorageError) {
        try db.execute(
            """
            UPDATE message SET parent_id = NULL
            WHERE parent_id IS NOT NULL AND parent_id != 0 AND parent_id NOT IN (SELECT id FROM message);
            UPDATE conversation SET head_id = NULL
            WHERE head_id IS NOT NULL AND head_id != 0 AND head_id NOT IN (SELECT id FROM message);
            """)
    }

    /// New messages get ids past every one the damaged database handed out (its own count, or,
    /// when that cannot be read, far past the highest copied): a process still holding the id
    /// of a message that was lost must not update another one.
    private static func keepIDsUnused(_ db: SQLiteConnection, damaged: SQLiteConnection) throws(StorageError) {
        let handedOut = try? damaged.firstRow("SELECT seq FROM sqlite_sequence WHERE name = 'message'") {
            row throws(StorageError) in try row.column(0, as: Int64.self)
        }
        let highest =
            try db.firstRow("SELECT IFNULL(MAX(id), 0) FROM message") { row throws(StorageError) in
                try row.column(0, as: Int64.self)
            } ?? 0
        let next = max((handedOut ?? nil) ?? highest + 1_000_000, highest)
        try db.run("DELETE FROM sqlite_sequence WHERE name = 'message'")
        try db.run("INSERT INTO sqlite_sequence (name, seq) VALUES ('message', ?)", [next])
    }
}
