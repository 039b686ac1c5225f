import ChatDomain
import ChatSystem
import Dispatch
import Synchronization

/// The history database's connection and the serial queue every use of it runs on, never the
/// caller's thread (Swift's small cooperative pool, which the answer's stream needs): callers
/// await the result, a streaming answer's checkpoints are queued without waiting, and opening
/// is the first job, so every use comes after it.
///
/// What is asked to be stored goes through `PendingWrites`: a write that fails (a full disk, a
/// lock held too long, a database that cannot be opened) is kept in memory and stored, in
/// order, with the next one that succeeds. A database SQLite calls damaged (at opening or at
/// any use), once an integrity check confirms it, is set aside and salvaged, and the use tried
/// again on the new one.
final class HistoryQueue: @unchecked Sendable {
    // `@unchecked`: every `var` below is read and written only by jobs on `queue`.
    private let queue = DispatchQueue(label: "chat.history")
    private let directory: DataDirectory
    private let report: @Sendable (HistoryNotice) -> Void
    private var database: OpenHistory?
    private var openingFailure: DatabaseFailure?
    private var pending = PendingWrites()
    /// Why the last write failed.
    private var lastFailure: DatabaseFailure?
    /// Whether a failed write was reported (once a run).
    private var reported = false
    /// Whether a write gave up waiting for another process's lock: after that (or a report),
    /// writes wait only briefly, so a process that hangs holding the lock costs each turn
    /// little.
    private var waitedOutALock = false
    /// Whether the last flush left nothing pending; false until one has run. Read off the queue
    /// by `unstored`, so that a run whose writes all succeeded ends without a trip to the queue.
    private let flushedAll = Atomic<Bool>(false)

    /// Starts opening the history database in `directory`, as the queue's first job. `report`
    /// hears what the person should know: a failed write (once), a damaged database salvaged.
    init(directory: DataDirectory, report: @escaping @Sendable (HistoryNotice) -> Void) {
        self.directory = directory
        self.report = report
        queue.async { [self] in connect() }
    }

    /// Why opening failed, once it has been tried; nil when it worked.
    var openingError: StorageError? {
        get async { await onQueue { self.database == nil ? self.openingFailure.map(StorageError.database) : nil } }
    }

    /// Runs `body` on the queue and waits for it without holding a thread. An unsafe
    /// continuation, resumed exactly once by the one job: a checked one's type metadata was made
    /// at run time at the first use of each result type (docs/PERFORMANCE.md, round 17).
    func onQueue<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withUnsafeContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }

    /// Prepares, on the queue and without waiting, the statements an answer's last write runs
    /// (`MessageRows.appendStatements`, `SearchIndex.keepUpStatements`), while the answer is on
    /// its way and the queue has nothing to do.
    func prepareAnswerWrite() {
        queue.async { [self] in
            database?.connection.prepare(MessageRows.appendStatements + SearchIndex.keepUpStatements)
        }
    }

    /// Runs `body` on the queue after `delay`, without waiting for it.
    func later(_ delay: Duration, _ body: @escaping @Sendable () -> Void) {
        let components = delay.components
        let nanoseconds = Int(components.seconds) * 1_000_000_000 + Int(components.attoseconds / 1_000_000_000)
        queue.asyncAfter(deadline: .now() + .nanoseconds(max(nanoseconds, 0)), execute: body)
    }

    // MARK: - Writes that must not be lost

    /// Stores `writes` after whatever is still pending, in one transaction, and waits for it;
    /// returns the ids each write gave its messages (provisional until stored).
    func store(_ writes: [PendingWrites.Write], patience: HistoryPatience) async -> [[Int64]] {
        await onQueue { self.storeNow(writes, patience: patience) }
    }

    /// On the queue: `store`.
    func storeNow(_ writes: [PendingWrites.Write], patience: HistoryPatience) -> [[Int64]] {
        let provisional = writes.map { pending.add($0) }
        flush(patience: patience)
        return provisional.map { ids in ids.map { pending.rowID(for: $0) ?? $0 } }
    }

    /// On the queue: a conversation id that is not taken, as far as the database can tell.
    func unusedConversationID() -> String {
        MessageRows.unusedConversationID(database?.connection)
    }

    /// The messages not stored yet, after one more try; nil when everything is stored. Asked
    /// when the writes a caller awaits are done: when the last of them left nothing pending,
    /// there is nothing to try again (a checkpoint still queued stores nothing once its answer
    /// is finished), and the answer comes without waiting for the queue.
    func unstored() async -> UnstoredMessages? {
        if flushedAll.load(ordering: .acquiring) { return nil }
        return await onQueue {
            self.flush(patience: .long)
            let count = self.pending.messageCount
            guard count > 0 else { return nil }
            return UnstoredMessages(count: count, failure: self.lastFailure ?? DatabaseFailure(reason: "not stored"))
        }
    }

    /// On the queue: stores what is pending; false when that failed. A failure is reported
    /// once a run, except a lock held by another process past a short wait: the next write
    /// stores what this one could not.
    @discardableResult
    private func flush(patience: HistoryPatience) -> Bool {
        defer { flushedAll.store(self.pending.isEmpty, ordering: .releasing) }
        guard !pending.isEmpty else { return true }
        let pending = self.pending
        // Thrown, not a `Result`: a `Result` of `StorageError` here cost every run the run-time
        // instantiation of its type metadata (docs/PERFORMANCE.md, round 17).
        do throws(StorageError) {
            let assigned = try transaction(writing: true, patience: reported || waitedOutALock ? .short : patience) {
                db throws(StorageError) in try pending.store(db)
            }
            self.pending.markStored(assigned)
            return true
        } catch {
            let failure = error.databaseFailure ?? DatabaseFailure(reason: "\(error)")
            lastFailure = failure
            if failure.kind == .locked { waitedOutALock = true }
            if !reported && !(failure.kind == .locked && patience == .short) {
                reported = true
                report(.notStored(failure))
            }
            return false
        }
    }

    // MARK: - Reads, and writes whose failure the caller shows

    /// `body` in a write transaction on the queue (after what is pending), its failure returned.
    func writeResult<T: Sendable>(
        _ body: @escaping @Sendable (SQLiteConnection) throws(StorageError) -> T
    ) async -> Result<T, StorageError> {
        await onQueue {
            self.flush(patience: .long)
            return self.transactionNow(writing: true, patience: .long, body)
        }
    }

    /// `body` in a transaction on the queue after what is pending was stored (if it could be),
    /// with message `id` as its row id (nil while it is not stored).
    func afterPending<T: Sendable>(
        writing: Bool, resolving id: Int64,
        _ body: @escaping @Sendable (SQLiteConnection, Int64?) throws(StorageError) -> T
    ) async -> Result<T, StorageError> {
        await onQueue {
            self.flush(patience: .long)
            let row = self.pending.rowID(for: id)
            return self.transactionNow(writing: writing, patience: .long) { db throws(StorageError) in try body(db, row)
            }
        }
    }

    /// `body` in a read transaction on the queue.
    func read<T: Sendable>(
        _ body: @escaping @Sendable (SQLiteConnection) throws(StorageError) -> T
    ) async -> Result<T, StorageError> {
        await onQueue { self.transactionNow(writing: false, patience: .long, body) }
    }

    /// On the queue: `body` in a transaction of its own. When SQLite calls the database damaged
    /// and a check confirms it, the database is salvaged and `body` runs again on the new one.
    func transactionNow<T>(
        writing: Bool, patience: HistoryPatience, _ body: (SQLiteConnection) throws(StorageError) -> T
    ) -> Result<T, StorageError> {
        Result { () throws(StorageError) -> T in try transaction(writing: writing, patience: patience, body) }
    }

    /// On the queue: `transactionNow`, its failure thrown.
    private func transaction<T>(
        writing: Bool, patience: HistoryPatience, _ body: (SQLiteConnection) throws(StorageError) -> T
    ) throws(StorageError) -> T {
        for attempt in 0...1 {
            let open = try connection()
            let db = open.connection
            if open.patience != patience, (try? db.setBusyTimeout(milliseconds: patience.milliseconds)) != nil {
                open.patience = patience
            }
            do throws(StorageError) {
                return try db.transaction(writing: writing) { () throws(StorageError) -> T in try body(db) }
            } catch {
                guard error.databaseFailure?.kind == .damaged, attempt == 0, recover(open) else { throw error }
            }
        }
        throw .unexpected("the history could not be salvaged")
    }

    // MARK: - Opening

    /// On the queue: opens the database (salvaging a damaged one).
    private func connect() {
        do throws(DatabaseFailure) {
            let opened = try HistoryOpening.open(in: directory)
            database = opened
            openingFailure = nil
            if let salvage = opened.salvage { report(.salvaged(salvage)) }
        } catch {
            database = nil
            openingFailure = error
        }
    }

    /// The open database: opened again when opening failed before (it may work now), or when
    /// another process set the file aside and started a new one. Thrown, not a `Result`, for
    /// the reason `flush` gives.
    private func connection() throws(StorageError) -> OpenHistory {
        if let database, database.isCurrent { return database }
        database = nil
        connect()
        if let database { return database }
        throw .database(openingFailure ?? DatabaseFailure(reason: "the history is not open"))
    }

    /// After SQLite called `open`'s database damaged: when an integrity check confirms it, sets
    /// it aside and opens a new one with what could be read. When the check finds the tables
    /// whole, what SQLite called damaged is the full-text index (whose own structure no check
    /// of the tables reads): it is made again from the messages. True when the use may be tried
    /// again.
    private func recover(_ open: OpenHistory) -> Bool {
        guard HistoryDamage.isConfirmed(at: open.path) else {
            let db = open.connection
            return (try? db.transaction(writing: true) { () throws(StorageError) in try SearchIndex.rebuild(db) })
                != nil
        }
        let identity = open.fileIdentity
        database = nil
        do throws(DatabaseFailure) {
            let opened = try HistoryOpening.recover(in: directory, damaged: identity)
            database = opened
            if let salvage = opened.salvage { report(.salvaged(salvage)) }
            return true
        } catch {
            openingFailure = error
            return false
        }
    }
}
