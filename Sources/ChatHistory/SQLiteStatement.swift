internal import CSQLite
import ChatDomain

/// One prepared statement of a `SQLiteConnection`, finalized when it goes. After `step()`
/// returns true the statement is on a row, whose columns `column` reads by index or by name.
final class SQLiteStatement {
    private let handle: OpaquePointer
    /// Its database's, for its error messages.
    private let database: OpaquePointer
    /// The connection, kept open while the statement lives; nil for a statement the connection
    /// keeps itself (`SQLiteConnection.statement`), which it outlives.
    private let owner: SQLiteConnection?
    private var onRow = false
    private lazy var columnIndexes: [String: Int32] = {
        var indexes: [String: Int32] = [:]
        for index in 0..<sqlite3_column_count(handle) {
            if let name = sqlite3_column_name(handle, index) {
                let key = String(cString: name)
                // The leftmost of two columns with one name wins.
                if indexes[key] == nil { indexes[key] = index }
            }
        }
        return indexes
    }()

    /// Compiles `sql`, which must be one statement; `keptByIt`: `connection` keeps it.
    init(_ sql: String, on connection: SQLiteConnection, keptByIt: Bool = false) throws(StorageError) {
        var handle: OpaquePointer?
        var rest = ""
        let code = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v2(connection.handle, text, -1, &handle, &tail)
            if let tail { rest = String(cString: tail) }
            return code
        }
        guard code == SQLITE_OK else {
            sqlite3_finalize(handle)
            throw connection.error(code)
        }
        guard let handle else { throw StorageError.unexpected("no SQL statement in \"\(sql)\"") }
        guard rest.allSatisfy(\.isWhitespace) else {
            sqlite3_finalize(handle)
            throw StorageError.unexpected("more than one SQL statement in \"\(sql)\"")
        }
        self.handle = handle
        database = connection.handle
        owner = keptByIt ? nil : connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    private func error(_ code: Int32) -> StorageError {
        SQLiteConnection.error(code, on: database)
    }

    /// Whether the statement is part-way through its rows (stepped, neither done nor reset).
    var isBusy: Bool { sqlite3_stmt_busy(handle) != 0 }

    /// Ends the statement's run (and any read it holds open), ready to be bound again, and lets
    /// go of what was bound: a kept statement would otherwise hold its last copy of a message's
    /// text (or of a whole `/load`ed conversation's) until its next use.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        onRow = false
    }

    /// Starts the statement over with `arguments` bound to its `?` parameters, in order.
    func bind(_ arguments: [any SQLiteValue]) throws(StorageError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        onRow = false
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard arguments.count == expected else {
            throw StorageError.unexpected("the statement takes \(expected) arguments, not \(arguments.count)")
        }
        for (offset, argument) in arguments.enumerated() {
            let code = argument.bind(to: handle, at: Int32(offset + 1))
            guard code == SQLITE_OK else { throw error(code) }
        }
    }

    /// Starts the statement over with `arguments` and runs it to its end.
    func run(_ arguments: SQLiteArguments) throws(StorageError) {
        sqlite3_reset(handle)
        onRow = false
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard arguments.count == expected else {
            throw StorageError.unexpected("the statement takes \(expected) arguments, not \(arguments.count)")
        }
        try arguments.bound(to: handle, error: error) { () throws(StorageError) in
            defer { sqlite3_reset(handle) }
            while try step() {}
        }
    }

    /// Runs the statement to its next row: true when it is on one, false once it is done.
    func step() throws(StorageError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: onRow = true
        case SQLITE_DONE: onRow = false
        default:
            onRow = false
            throw error(code)
        }
        return onRow
    }

    /// Column `index` (from 0) of the current row. Reading NULL, or a value that does not fit
    /// `T`, as a non-optional `T` is an error.
    func column<T: SQLiteValue>(_ index: Int32, as type: T.Type = T.self) throws(StorageError) -> T {
        guard onRow else { throw StorageError.unexpected("no row to read column \(index) from") }
        guard index >= 0, index < sqlite3_column_count(handle) else {
            throw StorageError.unexpected("no column \(index) in the result")
        }
        guard let value = T.read(from: handle, at: index) else {
            let name = sqlite3_column_name(handle, index).map { String(cString: $0) } ?? "\(index)"
            throw StorageError.unexpected("column \(name) holds no \(T.self)")
        }
        return value
    }

    /// The column named `name` of the current row.
    func column<T: SQLiteValue>(_ name: String, as type: T.Type = T.self) throws(StorageError) -> T {
        guard let index = columnIndexes[name] else { throw StorageError.unexpected("no column \(name) in the result") }
        return try column(index)
    }
}
