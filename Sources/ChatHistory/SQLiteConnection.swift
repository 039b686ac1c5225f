internal import CSQLite
import ChatDomain

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One connection to a SQLite database, closed when it goes. Not for concurrent use: whoever
/// owns it serializes the calls (the history store through its queue). Every failure is a
/// `StorageError.database` with SQLite's own message and what kind of failure its code tells.
final class SQLiteConnection {
    let handle: OpaquePointer
    /// The statements `run`, `rows` and `firstRow` prepared, by their SQL, to run again without
    /// being parsed again (preparing was half of an answer's last write: docs/PERFORMANCE.md,
    /// round 21); at most `keptStatements` of them.
    private var kept: [String: SQLiteStatement] = [:]
    private static let keptStatements = 32

    /// SQLite's process-wide settings, made once before the first connection opens: no memory
    /// statistics (`csqlite_disable_memory_statistics`). Fails harmlessly when something in
    /// the process used SQLite first.
    private static let configured: Void = { _ = csqlite_disable_memory_statistics() }()

    /// Opens the database at `path` for reading and writing, creating the file if needed.
    init(path: String) throws(StorageError) {
        Self.configured
        var handle: OpaquePointer?
        // NOMUTEX: the owner serializes, so SQLite's own locking would be wasted.
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            // On most failures SQLite still returns a handle, holding the message; it must be closed.
            let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            let systemError = handle.map { sqlite3_system_errno($0) } ?? 0
            sqlite3_close_v2(handle)
            throw Self.failure(code, Self.withSystemReason(message ?? Self.describe(code), code, systemError))
        }
        self.handle = handle
    }

    deinit {
        kept.removeAll()  // finalized before the connection closes
        sqlite3_close_v2(handle)
    }

    /// The statement for `sql`: the one kept for it, when it is not part-way through its rows
    /// (a use inside another's rows gets one of its own); else prepared now, and kept while
    /// fewer than `keptStatements` are, unless `keep` is false (SQL made for one use, which
    /// would take the place of statements that are used again).
    func statement(_ sql: String, keep: Bool = true) throws(StorageError) -> SQLiteStatement {
        if let statement = kept[sql], !statement.isBusy { return statement }
        let keeps = keep && kept[sql] == nil && kept.count < Self.keptStatements
        let statement = try SQLiteStatement(sql, on: self, keptByIt: keeps)
        if keeps { kept[sql] = statement }
        return statement
    }

    /// Prepares `statements` now, to be kept for their first use (one that does not prepare is
    /// left for that use to report).
    func prepare(_ statements: [String]) {
        for sql in statements { _ = try? statement(sql) }
    }

    /// Runs `sql`, any number of statements with no parameters (a migration, a pragma).
    func execute(_ sql: String) throws(StorageError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard code == SQLITE_OK else {
            throw message.map { Self.failure(sqlite3_extended_errcode(handle), String(cString: $0)) } ?? error(code)
        }
    }

    /// Runs one statement with `arguments` to its end.
    func run(_ sql: String, _ arguments: [any SQLiteValue] = []) throws(StorageError) {
        let statement = try statement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        while try statement.step() {}
    }

    /// Every row of one statement, each made into a `T` by `row`; its statement kept for the next
    /// use unless `keep` is false (`statement(_:keep:)`).
    func rows<T>(
        _ sql: String, _ arguments: [any SQLiteValue] = [], keep: Bool = true,
        _ row: (SQLiteStatement) throws(StorageError) -> T
    ) throws(StorageError) -> [T] {
        let statement = try statement(sql, keep: keep)
        defer { statement.reset() }
        try statement.bind(arguments)
        var rows: [T] = []
        while try statement.step() { rows.append(try row(statement)) }
        return rows
    }

    /// The first row of one statement made into a `T`, or nil when there is none.
    func firstRow<T>(
        _ sql: String, _ arguments: [any SQLiteValue] = [], _ row: (SQLiteStatement) throws(StorageError) -> T
    ) throws(StorageError) -> T? {
        let statement = try statement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        return try statement.step() ? try row(statement) : nil
    }

    /// The rowid of the last row this connection inserted.
    var lastInsertedRowID: Int64 {
        sqlite3_last_insert_rowid(handle)
    }

    /// Runs `body` in a transaction, committed when it returns and rolled back when it throws.
    /// A writing one begins IMMEDIATE, taking the write lock at once (waiting out the busy
    /// timeout), so it never fails half-way on a lock another connection holds.
    func transaction<T>(writing: Bool, _ body: () throws(StorageError) -> T) throws(StorageError) -> T {
        try execute(writing ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
        do throws(StorageError) {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            // SQLite may have rolled back already (on some errors, or a failed COMMIT).
            if sqlite3_get_autocommit(handle) == 0 { sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
            throw error
        }
    }

    /// How long a statement waits for another connection's lock before it fails as busy.
    func setBusyTimeout(milliseconds: Int32) throws(StorageError) {
        let code = sqlite3_busy_timeout(handle, milliseconds)
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// Closing the connection leaves the WAL as it is: no checkpoint, no fsyncs. SQLite still
    /// checkpoints on its own once the WAL passes 1000 pages.
    func disableCheckpointOnClose() throws(StorageError) {
        let code = csqlite_disable_checkpoint_on_close(handle)
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// The error SQLite reports for the last call on this connection that returned `code`.
    func error(_ code: Int32) -> StorageError {
        Self.error(code, on: handle)
    }

    /// The error SQLite reports for the last call on the database `handle` that returned `code`.
    static func error(_ code: Int32, on handle: OpaquePointer) -> StorageError {
        let message = sqlite3_errmsg(handle).map { String(cString: $0) } ?? describe(code)
        return failure(code, withSystemReason(message, code, sqlite3_system_errno(handle)))
    }

    /// SQLite's message, with the system's reason after it where SQLite's alone does not say
    /// why ("unable to open database file (Permission denied)").
    private static func withSystemReason(_ message: String, _ code: Int32, _ systemError: Int32) -> String {
        switch code & 0xFF {
        case SQLITE_CANTOPEN, SQLITE_IOERR, SQLITE_READONLY, SQLITE_PERM:
            guard systemError != 0, let reason = strerror(systemError) else { return message }
            return "\(message) (\(String(cString: reason)))"
        default:
            return message
        }
    }

    /// The error for SQLite's result `code` (primary or extended) with `reason`.
    static func failure(_ code: Int32, _ reason: String) -> StorageError {
        let kind: DatabaseFailure.Kind
        switch code & 0xFF {
        case SQLITE_CORRUPT, SQLITE_NOTADB: kind = .damaged
        case SQLITE_FULL: kind = .full
        case SQLITE_BUSY, SQLITE_LOCKED: kind = .locked
        case SQLITE_READONLY, SQLITE_PERM, SQLITE_CANTOPEN, SQLITE_AUTH: kind = .denied
        default: kind = .other
        }
        return .database(DatabaseFailure(kind: kind, reason: reason))
    }

    /// SQLite's text for a result code.
    private static func describe(_ code: Int32) -> String {
        sqlite3_errstr(code).map { String(cString: $0) } ?? "SQLite error \(code)"
    }
}
