import ChatDomain

/// The full-text index of the history's messages, brought up to date just before a search
/// instead of as each message is stored: storing a `/load`ed conversation of a thousand turns,
/// or an answer while it streams, then costs no indexing. An answer's last write indexes a few
/// (`keepUp`), so the messages waiting for the next search stay few. `message_fts_progress` holds the
/// newest message id indexed; every message up to it is indexed as it stands now (the schema's
/// triggers keep those in step on update and delete), none after it.
enum SearchIndex {
    /// Whether messages were stored since the index last caught up.
    static func isBehind(_ db: SQLiteConnection) throws(StorageError) -> Bool {
        let (indexed, newest) = try progress(db)
        return newest > indexed
    }

    /// Indexes the messages stored since the index last caught up, in one statement. Run in a
    /// write transaction.
    static func catchUp(_ db: SQLiteConnection) throws(StorageError) {
        let (indexed, newest) = try progress(db)
        guard newest > indexed else { return }
        // Many rows touch many pages of the index: the bulk cache, as for storing many rows.
        try HistoryOpening.setCache(db, bulk: true)
        defer { try? HistoryOpening.setCache(db, bulk: false) }
        try db.run("INSERT INTO message_fts (rowid, content) SELECT id, content FROM message WHERE id > ?", [indexed])
        try db.run(advance, [newest])
    }

    /// How many messages an answer's last write indexes at most (`keepUp`).
    static let keptUpPerAnswer: Int64 = 16
    /// How many messages may wait for the next search before an answer's last write indexes
    /// some (`keepUp`): below it, an answer connects no full-text table and writes none of its
    /// pages (a one-shot: 8 statements compiled and 4 WAL frames fewer, issue 39).
    static let keptUpBacklog: Int64 = 32

    /// Indexes the oldest messages not indexed yet, at most `keptUpPerAnswer` ids of them, once
    /// `keptUpBacklog` wait: run with an answer's last write, so that the index keeps up with a
    /// history nobody searches (the next search then has a few dozen messages to index, not
    /// every one stored since the last) at the cost of one answer in eight or so. Run in a
    /// write transaction.
    static func keepUp(_ db: SQLiteConnection) throws(StorageError) {
        let (indexed, newest) = try progress(db)
        guard newest - indexed >= keptUpBacklog else { return }
        let through = min(newest, indexed + keptUpPerAnswer)
        try db.run(indexSome, [indexed, through])
        try db.run(advance, [through])
    }

    /// The statement `keepUp` always runs, for `SQLiteConnection.prepare` to prepare ahead (the
    /// others, and the full-text table's connection, only when it indexes).
    static let keepUpStatements = [progressQuery]

    private static let progressQuery =
        "SELECT (SELECT indexed_through FROM message_fts_progress), (SELECT IFNULL(MAX(id), 0) FROM message)"
    private static let indexSome =
        "INSERT INTO message_fts (rowid, content) SELECT id, content FROM message WHERE id > ? AND id <= ?"
    private static let advance = "UPDATE message_fts_progress SET indexed_through = ?"

    /// Makes the index again from the messages, all of them: for an index SQLite calls damaged
    /// while the tables are whole. Run in a write transaction.
    static func rebuild(_ db: SQLiteConnection) throws(StorageError) {
        try HistoryOpening.setCache(db, bulk: true)
        defer { try? HistoryOpening.setCache(db, bulk: false) }
        try db.execute("INSERT INTO message_fts (message_fts) VALUES ('rebuild')")
        try db.run("UPDATE message_fts_progress SET indexed_through = (SELECT IFNULL(MAX(id), 0) FROM message)")
    }

    /// The newest message id indexed and the newest message id stored.
    private static func progress(_ db: SQLiteConnection) throws(StorageError) -> (indexed: Int64, newest: Int64) {
        let row = try db.firstRow(progressQuery) { row throws(StorageError) in
            (try row.column(0, as: Int64.self), try row.column(1, as: Int64.self))
        }
        guard let row else { throw StorageError.unexpected("the search index's progress is missing") }
        return row
    }
}
