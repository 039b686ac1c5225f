internal import CSQLite

/// A Swift value a statement can bind to a parameter and read back from a result column:
/// `Int64`, `Int`, `Double`, `String`, and an optional of one of them for NULL.
protocol SQLiteValue {
    /// Binds the value to parameter `index` (from 1) of `statement`; SQLite's result code.
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32
    /// Column `index` of the row `statement` is on; nil when it is NULL or does not fit.
    static func read(from statement: OpaquePointer, at index: Int32) -> Self?
}

extension Int64: SQLiteValue {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, self)
    }

    static func read(from statement: OpaquePointer, at index: Int32) -> Int64? {
        guard sqlite3_column_type(statement, index) != SQLITE_NULL else { return nil }
        return sqlite3_column_int64(statement, index)
    }
}

extension Int: SQLiteValue {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        Int64(self).bind(to: statement, at: index)
    }

    static func read(from statement: OpaquePointer, at index: Int32) -> Int? {
        Int64.read(from: statement, at: index).flatMap { Int(exactly: $0) }
    }
}

extension Double: SQLiteValue {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_double(statement, index, self)
    }

    static func read(from statement: OpaquePointer, at index: Int32) -> Double? {
        guard sqlite3_column_type(statement, index) != SQLITE_NULL else { return nil }
        return sqlite3_column_double(statement, index)
    }
}

extension String: SQLiteValue {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        guard let length = Int32(exactly: utf8.count) else { return SQLITE_TOOBIG }
        // The string's own bytes, which SQLite copies (passing `self` as a C string would copy
        // them once more first).
        var text = self
        return text.withUTF8 { bytes in
            guard let start = bytes.baseAddress else { return csqlite_bind_text(statement, index, "", 0) }
            return start.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                csqlite_bind_text(statement, index, $0, length)
            }
        }
    }

    static func read(from statement: OpaquePointer, at index: Int32) -> String? {
        guard sqlite3_column_type(statement, index) != SQLITE_NULL else { return nil }
        // The text first, then its length in bytes, as SQLite asks.
        guard let text = sqlite3_column_text(statement, index) else { return "" }
        let length = Int(sqlite3_column_bytes(statement, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self)
    }
}

extension Optional: SQLiteValue where Wrapped: SQLiteValue {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        switch self {
        case .some(let value): return value.bind(to: statement, at: index)
        case .none: return sqlite3_bind_null(statement, index)
        }
    }

    /// NULL reads as `.some(nil)`: for an optional, NULL is a value.
    static func read(from statement: OpaquePointer, at index: Int32) -> Wrapped?? {
        .some(Wrapped.read(from: statement, at: index))
    }
}

/// A column's value as SQLite holds it, whatever its type: what a salvage copies from one
/// database to another without knowing the columns.
enum SQLiteStoredValue: SQLiteValue, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        switch self {
        case .null: return sqlite3_bind_null(statement, index)
        case .integer(let value): return value.bind(to: statement, at: index)
        case .real(let value): return value.bind(to: statement, at: index)
        case .text(let value): return value.bind(to: statement, at: index)
        case .blob(let bytes):
            return bytes.withUnsafeBytes { csqlite_bind_blob(statement, index, $0.baseAddress, Int32(bytes.count)) }
        }
    }

    static func read(from statement: OpaquePointer, at index: Int32) -> SQLiteStoredValue? {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT: return String.read(from: statement, at: index).map(SQLiteStoredValue.text)
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard count > 0, let bytes = sqlite3_column_blob(statement, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }
}
