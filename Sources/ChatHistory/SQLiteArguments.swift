internal import CSQLite
import ChatDomain

/// The values for a statement's `?` parameters, in order, for many rows at once (`SQLiteStatement.run`).
/// The texts are copied into one buffer, which SQLite reads while the statement runs instead
/// of copying each into an allocation of its own; no value is boxed as an `any SQLiteValue`.
/// Storing a `/load`ed conversation binds some 28,000 values.
struct SQLiteArguments {
    private enum Value {
        case null
        case integer(Int64)
        case real(Double)
        /// Bytes `start..<start + count` of `texts`.
        case text(start: Int, count: Int)
    }

    private var values: [Value] = []
    private var texts: [UInt8] = []

    init(capacity: Int) {
        values.reserveCapacity(capacity)
    }

    var count: Int { values.count }

    mutating func append(_ value: String?) {
        guard var value else { return values.append(.null) }
        let start = texts.count
        value.withUTF8 { texts.append(contentsOf: $0) }
        values.append(.text(start: start, count: texts.count - start))
    }

    mutating func append(_ value: Int?) {
        values.append(value.map { .integer(Int64($0)) } ?? .null)
    }

    mutating func append(_ value: Int64?) {
        values.append(value.map { .integer($0) } ?? .null)
    }

    mutating func append(_ value: Double) {
        values.append(.real(value))
    }

    mutating func append(_ value: Double?) {
        values.append(value.map { .real($0) } ?? .null)
    }

    /// Binds the values to `statement`'s parameters and runs `body`, during which SQLite may
    /// read the texts; their bindings are cleared after it. A value SQLite refuses is thrown
    /// as `error` makes its result code.
    func bound<T>(
        to statement: OpaquePointer, error: (Int32) -> StorageError, _ body: () throws(StorageError) -> T
    ) throws(StorageError) -> T {
        try texts.withUnsafeBufferPointer { buffer -> Result<T, StorageError> in
            defer { sqlite3_clear_bindings(statement) }
            for (offset, value) in values.enumerated() {
                let index = Int32(offset + 1)
                let code: Int32
                switch value {
                case .null: code = sqlite3_bind_null(statement, index)
                case .integer(let integer): code = sqlite3_bind_int64(statement, index, integer)
                case .real(let real): code = sqlite3_bind_double(statement, index, real)
                case .text(let start, let count):
                    if count == 0 {
                        code = csqlite_bind_text(statement, index, "", 0)
                    } else if let length = Int32(exactly: count), let base = buffer.baseAddress {
                        // No destructor (SQLITE_STATIC): SQLite reads the buffer, which outlives `body`.
                        code = (base + start).withMemoryRebound(to: CChar.self, capacity: count) {
                            sqlite3_bind_text(statement, index, $0, length, nil)
                        }
                    } else {
                        code = SQLITE_TOOBIG
                    }
                }
                guard code == SQLITE_OK else { return .failure(error(code)) }
            }
            return Result { () throws(StorageError) -> T in try body() }
        }.get()
    }
}
