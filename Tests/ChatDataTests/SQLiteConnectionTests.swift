import ChatDomain
import Foundation
import Testing

@testable import ChatHistory

/// A database file of its own under /tmp for one test, removed when the test ends.
private final class DatabaseFile {
    let directory = NSTemporaryDirectory() + "chat-sqlite-\(UUID().uuidString)"
    var path: String { directory + "/test.sqlite" }

    init() {
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func open() throws -> SQLiteConnection {
        let db = try SQLiteConnection(path: path)
        try db.execute("CREATE TABLE IF NOT EXISTS item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, weight REAL)")
        return db
    }
}

/// The error `body` throws, or nil (recording an issue) when it throws none.
private func storageError(_ body: () throws(StorageError) -> Void) -> StorageError? {
    do {
        try body()
        Issue.record("expected a StorageError, got none")
        return nil
    } catch {
        return error
    }
}

private func count(_ db: SQLiteConnection) throws -> Int? {
    try db.firstRow("SELECT COUNT(*) FROM item") { row throws(StorageError) in try row.column(0, as: Int.self) }
}

@Suite("SQLiteConnection", .timeLimit(.minutes(1)))
struct SQLiteConnectionTests {
    private let file = DatabaseFile()

    @Test func valuesRoundTripByIndexAndByName() throws {
        let db = try file.open()
        try db.run("CREATE TABLE v (i INTEGER, d REAL, t TEXT, n TEXT)")
        let text = "ça, 日本, 🐧 and a \u{0}NUL"
        try db.run("INSERT INTO v VALUES (?, ?, ?, ?)", [Int64.max, -0.125, text, String?.none])
        let row = try db.firstRow("SELECT i, d, t, n FROM v") { row throws(StorageError) in
            (
                try row.column(0, as: Int64.self), try row.column("d", as: Double.self),
                try row.column("t", as: String.self), try row.column("n", as: String?.self),
                try row.column(2, as: String?.self), try row.column("i", as: Int.self)
            )
        }
        #expect(row?.0 == Int64.max)
        #expect(row?.1 == -0.125)
        #expect(row?.2 == text)
        #expect(row?.3 == String?.none)
        #expect(row?.4 == text)
        #expect(row?.5 == Int.max)
    }

    @Test func aKeptStatementHoldsNothingOfItsLastUse() throws {
        let db = try file.open()
        let echo = try db.firstRow("SELECT ?", ["a long answer"]) { row throws(StorageError) in
            try row.column(0, as: String.self)
        }
        #expect(echo == "a long answer")
        // The same statement, kept, stepped again with nothing bound: its parameter is NULL.
        let statement = try db.statement("SELECT ?")
        defer { statement.reset() }
        #expect(try statement.step())
        #expect(try statement.column(0, as: String?.self) == nil)
    }

    @Test func statementsMadeForOneUseAreNotKept() throws {
        let db = try file.open()
        let once = try db.statement("SELECT 1", keep: false)
        let kept = try db.statement("SELECT 1")
        #expect(kept !== once)
        #expect(try db.statement("SELECT 1") === kept)
    }

    @Test func anEmptyStringIsStoredAsTextNotNull() throws {
        let db = try file.open()
        try db.run("INSERT INTO item (name) VALUES (?)", [""])
        let row = try db.firstRow("SELECT name, typeof(name) FROM item") { row throws(StorageError) in
            (try row.column(0, as: String?.self), try row.column(1, as: String.self))
        }
        #expect(row?.0 == "")
        #expect(row?.1 == "text")
    }

    @Test func rowsComeInOrderAndTheLastRowIDIsKnown() throws {
        let db = try file.open()
        for name in ["a", "b", "c"] { try db.run("INSERT INTO item (name) VALUES (?)", [name]) }
        #expect(db.lastInsertedRowID == 3)
        let names = try db.rows("SELECT name FROM item WHERE id >= ? ORDER BY id DESC", [2]) {
            row throws(StorageError) in try row.column("name", as: String.self)
        }
        #expect(names == ["c", "b"])
        #expect(try db.firstRow("SELECT name FROM item WHERE id = 99") { _ throws(StorageError) in true } == nil)
    }

    @Test func badSQLIsAStorageErrorWithSQLitesMessage() throws {
        let db = try file.open()
        #expect(
            storageError { () throws(StorageError) in try db.execute("SELEC 1") }
                == .database(DatabaseFailure(reason: #"near "SELEC": syntax error"#)))
        #expect(
            storageError { () throws(StorageError) in try db.run("SELECT * FROM nowhere") }
                == .database(DatabaseFailure(reason: "no such table: nowhere")))
        #expect(
            storageError { () throws(StorageError) in try db.run("INSERT INTO item (name) VALUES (NULL)") }
                == .database(DatabaseFailure(reason: "NOT NULL constraint failed: item.name")))
        #expect(
            storageError { () throws(StorageError) in try db.run("INSERT INTO item (name) VALUES (?)", []) }
                == .database(DatabaseFailure(reason: "the statement takes 1 arguments, not 0")))
        #expect(
            storageError { () throws(StorageError) in try db.run("SELECT 1; DROP TABLE item") }
                == .database(DatabaseFailure(reason: #"more than one SQL statement in "SELECT 1; DROP TABLE item""#)))
        #expect(
            storageError { () throws(StorageError) in try db.run("  ") }
                == .database(DatabaseFailure(reason: #"no SQL statement in "  ""#)))
        // The connection is still usable, and nothing was dropped.
        #expect(try count(db) == 0)
    }

    @Test func readingAColumnWrongIsAnErrorNotACrash() throws {
        let db = try file.open()
        try db.run("INSERT INTO item (name, weight) VALUES ('pebble', NULL)")
        func read(_ body: (SQLiteStatement) throws(StorageError) -> Void) -> StorageError? {
            storageError { () throws(StorageError) in
                _ = try db.firstRow("SELECT name, weight FROM item", [], body)
            }
        }
        #expect(
            read { row throws(StorageError) in _ = try row.column("weight", as: Double.self) }
                == .database(DatabaseFailure(reason: "column weight holds no Double")))
        #expect(
            read { row throws(StorageError) in _ = try row.column("colour", as: String.self) }
                == .database(DatabaseFailure(reason: "no column colour in the result")))
        #expect(
            read { row throws(StorageError) in _ = try row.column(2, as: String.self) }
                == .database(DatabaseFailure(reason: "no column 2 in the result")))
        #expect(
            read { row throws(StorageError) in _ = try row.column(-1, as: String.self) }
                == .database(DatabaseFailure(reason: "no column -1 in the result")))
        let statement = try SQLiteStatement("SELECT name FROM item", on: db)
        #expect(
            storageError { () throws(StorageError) in _ = try statement.column(0, as: String.self) }
                == .database(DatabaseFailure(reason: "no row to read column 0 from")))
    }

    @Test func aFailedTransactionLeavesNothingAndTheNextOneWorks() throws {
        let db = try file.open()
        let error = storageError { () throws(StorageError) in
            try db.transaction(writing: true) { () throws(StorageError) in
                try db.run("INSERT INTO item (name) VALUES ('kept only if all goes well')")
                try db.run("INSERT INTO item (name) VALUES (NULL)")
            }
        }
        #expect(error == .database(DatabaseFailure(reason: "NOT NULL constraint failed: item.name")))
        #expect(try count(db) == 0)
        let thrown = storageError { () throws(StorageError) in
            try db.transaction(writing: false) { () throws(StorageError) in throw StorageError.notFound(id: "x") }
        }
        #expect(thrown == .notFound(id: "x"))

        try db.transaction(writing: true) { () throws(StorageError) in
            try db.run("INSERT INTO item (name) VALUES ('a')")
        }
        #expect(try count(db) == 1)
    }

    @Test func aLockHeldTooLongIsABusyErrorAfterTheTimeout() throws {
        let holder = try file.open()
        try holder.execute("PRAGMA journal_mode = WAL")
        let waiter = try file.open()
        try waiter.setBusyTimeout(milliseconds: 100)
        try holder.execute("BEGIN IMMEDIATE")
        let started = ContinuousClock.now
        let error = storageError { () throws(StorageError) in
            try waiter.transaction(writing: true) { () throws(StorageError) in }
        }
        #expect(error == .database(DatabaseFailure(kind: .locked, reason: "database is locked")))
        #expect(ContinuousClock.now - started >= .milliseconds(90))
        try holder.execute("COMMIT")
        try waiter.transaction(writing: true) { () throws(StorageError) in try waiter.run("DELETE FROM item") }
    }

    @Test func aFileThatIsNotADatabaseFailsOnFirstUse() throws {
        let garbage = Data(repeating: 0x2A, count: 4096)
        #expect(FileManager.default.createFile(atPath: file.path, contents: garbage))
        let db = try SQLiteConnection(path: file.path)
        #expect(
            storageError { () throws(StorageError) in try db.execute("PRAGMA journal_mode = WAL") }
                == .database(DatabaseFailure(kind: .damaged, reason: "file is not a database")))
    }

    @Test func aPathThatCannotBeADatabaseFailsToOpen() throws {
        let error = storageError { () throws(StorageError) in _ = try SQLiteConnection(path: file.directory) }
        #expect(
            error == .database(DatabaseFailure(kind: .denied, reason: "unable to open database file (Is a directory)")))
        let missing = storageError { () throws(StorageError) in
            _ = try SQLiteConnection(path: file.directory + "/no/such/dir/x.sqlite")
        }
        #expect(
            missing
                == .database(
                    DatabaseFailure(kind: .denied, reason: "unable to open database file (No such file or directory)")))
    }
}
