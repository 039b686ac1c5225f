import ChatDomain

/// Copies what can still be read of a damaged history database into a new one, row by row,
/// skipping what cannot be read: every conversation and message SQLite can still reach, with
/// their ids, so nothing that refers to them (another process's answer still being stored, a
/// branch) points elsewhere. A database whose header was overwritten is read through a copy
/// with a rebuilt header.
///
/// The damaged database is read through a connection of its own, never attached to the new
/// one: a statement that meets a damaged page would spoil the new one's write transaction.
enum HistorySalvager {
    /// Copies from the damaged database at `damagedPath` into `db` (new, migrated) and tells
    /// what became of its conversations.
    static func copy(from damagedPath: String, into db: SQLiteConnection) -> HistorySalvage {
        var outcome = HistorySalvage(damagedPath: damagedPath, recovered: 0, partlyRecovered: 0, unreadable: 0)
        var rebuilt: RebuiltHeaderCopy?
        var damaged = reader(damagedPath)
        if damaged == nil, let copy = RebuiltHeaderCopy(of: damagedPath) {
            for size in copy.pageSizes where damaged == nil && copy.rebuild(pageSize: size) {
                damaged = reader(copy.path)
            }
            rebuilt = copy
        }
        guard let damaged else { return outcome }
        defer { _ = rebuilt }
        let known = KnownRows(damaged)
        // The rows keep their own ids; a message whose conversation's row is lost gets one made
        // for it below, so the foreign key is checked only then.
        try? db.execute("PRAGMA foreign_keys = OFF")
        defer { try? db.execute("PRAGMA foreign_keys = ON") }
        do throws(StorageError) {
            try db.transaction(writing: true) { () throws(StorageError) in
                try copyRows(of: "conversation", from: damaged, into: db)
                let copiedConversations = Set(
                    try db.rows("SELECT id FROM conversation") { row throws(StorageError) in
                        try row.column(0, as: String.self)
                    })
                try copyRows(of: "message", from: damaged, into: db)
                // The bytes of fetched files, when the damaged database had them (schema v12).
                if (try? SalvageRepairs.columns(of: "fetched_file", damaged))?.isEmpty == false {
                    try copyRows(of: "fetched_file", from: damaged, into: db)
                }
                try SalvageRepairs.apply(db, damaged: damaged)
                outcome = try known.outcome(damagedPath: damagedPath, copiedConversations: copiedConversations, db)
            }
        } catch {
            return outcome
        }
        return outcome
    }

    /// A connection that reads the database at `path`, when its schema can be read and it
    /// holds chat's tables. It never checkpoints the WAL into the damaged file.
    private static func reader(_ path: String) -> SQLiteConnection? {
        do throws(StorageError) {
            let connection = try SQLiteConnection(path: path)
            try connection.disableCheckpointOnClose()
            let tables = try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table'") {
                row throws(StorageError) in try row.column(0, as: String.self)
            }
            return tables.contains("conversation") && tables.contains("message") ? connection : nil
        } catch {
            return nil
        }
    }

    /// Copies every row of `table` that can be read, one by one, with its rowid (a message's is
    /// its id), in the columns both databases have.
    private static func copyRows(of table: String, from damaged: SQLiteConnection, into db: SQLiteConnection)
        throws(StorageError)
    {
        var names = try SalvageRepairs.columns(of: table, db).intersection(
            try SalvageRepairs.columns(of: table, damaged)
        ).sorted().map { "\"\($0)\"" }
        if table != "message" { names.insert("rowid", at: 0) }
        let columns = names.joined(separator: ", ")
        let select = try SQLiteStatement("SELECT \(columns) FROM \(table) WHERE rowid = ?", on: damaged)
        let insert = try SQLiteStatement(
            "INSERT INTO \(table) (\(columns)) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))", on: db)
        for rowid in DamagedTableScan(damaged, table: table).rowids().ids {
            // A row whose own pages (a long message's overflow) are damaged is left out.
            let values: [SQLiteStoredValue]
            do throws(StorageError) {
                try select.bind([rowid])
                guard try select.step() else { continue }
                values = try names.indices.map { index throws(StorageError) in try select.column(Int32(index)) }
            } catch {
                continue
            }
            try insert.bind(values)
            while try insert.step() {}
        }
    }
}

/// What the damaged database's indexes (kept apart from the tables, so often readable when a
/// table's page is not) say was there: every conversation, and each one's message ids.
private struct KnownRows {
    var conversations = Set<String>()
    var messages: [String: Set<Int64>] = [:]

    init(_ damaged: SQLiteConnection) {
        for id in Self.read(
            "SELECT id FROM conversation ORDER BY id", damaged,
            { row throws(StorageError) in
                try row.column(0, as: String.self)
            })
        {
            conversations.insert(id)
        }
        let pairs = Self.read(
            "SELECT conversation_id, id FROM message INDEXED BY message_conversation ORDER BY conversation_id", damaged
        ) { row throws(StorageError) in (try row.column(0, as: String.self), try row.column(1, as: Int64.self)) }
        for (conversation, id) in pairs {
            conversations.insert(conversation)
            messages[conversation, default: []].insert(id)
        }
    }

    /// The rows `sql` gives until the end or the first that cannot be read.
    private static func read<T>(
        _ sql: String, _ db: SQLiteConnection, _ row: (SQLiteStatement) throws(StorageError) -> T
    ) -> [T] {
        var rows: [T] = []
        do throws(StorageError) {
            let statement = try SQLiteStatement(sql, on: db)
            while try statement.step() { rows.append(try row(statement)) }
        } catch {}
        return rows
    }

    /// How many conversations were copied whole, in part, or not at all.
    func outcome(damagedPath: String, copiedConversations: Set<String>, _ db: SQLiteConnection) throws(StorageError)
        -> HistorySalvage
    {
        var copied: [String: Set<Int64>] = [:]
        for (conversation, id) in try db.rows(
            "SELECT conversation_id, id FROM message", [],
            {
                row throws(StorageError) in (try row.column(0, as: String.self), try row.column(1, as: Int64.self))
            })
        {
            copied[conversation, default: []].insert(id)
        }
        var outcome = HistorySalvage(damagedPath: damagedPath, recovered: 0, partlyRecovered: 0, unreadable: 0)
        for conversation in conversations.union(copiedConversations).union(copied.keys) {
            let rowCopied = copiedConversations.contains(conversation)
            let messages = copied[conversation] ?? []
            if rowCopied && (self.messages[conversation] ?? []).isSubset(of: messages) {
                outcome.recovered += 1
            } else if rowCopied || !messages.isEmpty {
                outcome.partlyRecovered += 1
            } else {
                outcome.unreadable += 1
            }
        }
        return outcome
    }
}
