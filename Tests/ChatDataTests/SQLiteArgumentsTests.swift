import ChatDomain
import Foundation
import Testing

@testable import ChatHistory

/// Rows bound from `SQLiteArguments` (the texts from one buffer of their own, not copied by
/// SQLite) are stored exactly, the statement runs again with new ones, and a wrong count or a
/// refused row is an error.
@Suite("SQLiteArguments", .timeLimit(.minutes(1)))
struct SQLiteArgumentsTests {
    private let directory = NSTemporaryDirectory() + "chat-arguments-\(UUID().uuidString)"

    private func open() throws -> SQLiteConnection {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let db = try SQLiteConnection(path: directory + "/test.sqlite")
        try db.execute("CREATE TABLE v (i INTEGER, d REAL, t TEXT, n TEXT NOT NULL)")
        return db
    }

    private typealias Row = (i: Int?, d: Double, t: String?, n: String)

    private func rows(_ db: SQLiteConnection) throws -> [Row] {
        try db.rows("SELECT i, d, t, n FROM v ORDER BY rowid") { row throws(StorageError) in
            (
                try row.column(0, as: Int?.self), try row.column(1, as: Double.self),
                try row.column(2, as: String?.self), try row.column(3, as: String.self)
            )
        }
    }

    private func arguments(_ rows: [Row]) -> SQLiteArguments {
        var arguments = SQLiteArguments(capacity: rows.count * 4)
        for row in rows {
            arguments.append(row.i)
            arguments.append(row.d)
            arguments.append(row.t)
            arguments.append(row.n)
        }
        return arguments
    }

    @Test func rowsOfEveryKindOfValueAreStoredExactly() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let db = try open()
        let long = String(repeating: "long text, ", count: 10_000)
        let first: [Row] = [
            (1, 0.5, "ça, 日本, 🐧 and a \u{0}NUL", ""), (nil, -1, nil, "short"), (Int(Int64.max), 2, long, "x"),
        ]
        let second: [Row] = [(4, 4.25, "", "after"), (5, 5, "a", long), (6, 6, "b", "c")]
        let insert = try SQLiteStatement("INSERT INTO v VALUES (?, ?, ?, ?), (?, ?, ?, ?), (?, ?, ?, ?)", on: db)
        try insert.run(arguments(first))
        try insert.run(arguments(second))

        let stored = try rows(db)
        let expected = first + second
        #expect(stored.map(\.i) == expected.map(\.i))
        #expect(stored.map(\.d) == expected.map(\.d))
        #expect(stored.map(\.t) == expected.map(\.t))
        #expect(stored.map(\.n) == expected.map(\.n))
        // An empty text is text, not NULL.
        let emptyIsText = try db.firstRow("SELECT typeof(t) FROM v WHERE i = 4") { row throws(StorageError) in
            try row.column(0, as: String.self)
        }
        #expect(emptyIsText == "text")
    }

    @Test func aWrongCountOrARefusedRowIsAnErrorAndTheStatementRunsAgain() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let db = try open()
        let insert = try SQLiteStatement("INSERT INTO v VALUES (?, ?, ?, ?)", on: db)
        var tooFew = SQLiteArguments(capacity: 3)
        tooFew.append(1)
        tooFew.append(2.0)
        tooFew.append("three")
        #expect(throws: StorageError.database(DatabaseFailure(reason: "the statement takes 4 arguments, not 3"))) {
            try insert.run(tooFew)
        }

        var refused = SQLiteArguments(capacity: 4)
        refused.append(1)
        refused.append(1.0)
        refused.append("t")
        refused.append(String?.none)
        #expect(throws: StorageError.database(DatabaseFailure(reason: "NOT NULL constraint failed: v.n"))) {
            try insert.run(refused)
        }

        try insert.run(arguments([(2, 2, "kept", "n")]))
        #expect(try rows(db).map(\.t) == ["kept"])
    }
}
