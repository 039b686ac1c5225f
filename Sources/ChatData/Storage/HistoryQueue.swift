import ChatDomain
import Dispatch
import Synchronization

/// The history database's one connection and the serial queue every use of it runs on, never
/// the caller's thread (Swift's small cooperative pool, which the answer's stream needs):
/// callers await the result, a streaming answer's checkpoints are queued without waiting, and
/// opening is the first job, so every use comes after it.
final class HistoryQueue: @unchecked Sendable {
    // `@unchecked`: `database` and `openingError` are read and written only by jobs on `queue`.
    private let queue = DispatchQueue(label: "chat.history")
    private var database: SQLiteConnection?
    private var openingError: StorageError?
    private let report: @Sendable (HistoryNotice) -> Void
    private let reported = Mutex(false)

    /// Starts opening the database with `connect`, as the queue's first job. `report` hears
    /// about a failed write, once: the chat goes on.
    init(
        connect: @escaping @Sendable () -> Result<SQLiteConnection, StorageError>,
        report: @escaping @Sendable (HistoryNotice) -> Void
    ) {
        self.report = report
        queue.async { [self] in
            switch connect() {
            case .success(let connection): database = connection
            case .failure(let error): openingError = error
            }
        }
    }

    /// Why opening failed, once it has been tried; nil when it worked.
    var openingFailure: StorageError? {
        get async { await onQueue { self.openingError } }
    }

    /// Runs `body` on the queue and waits for it without holding a thread.
    func onQueue<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }

    /// Runs `body` on the queue after `delay`, without waiting for it.
    func later(_ delay: Duration, _ body: @escaping @Sendable () -> Void) {
        let components = delay.components
        let nanoseconds = Int(components.seconds) * 1_000_000_000 + Int(components.attoseconds / 1_000_000_000)
        queue.asyncAfter(deadline: .now() + .nanoseconds(max(nanoseconds, 0)), execute: body)
    }

    /// Runs `body` in a write transaction on the queue and waits for its value (nil when the
    /// write failed, which `report` heard about once).
    func write<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws(StorageError) -> T) async -> T? {
        await onQueue { self.writeNow(body) }
    }

    /// On the queue: `body` in a write transaction; a failure is reported (once) and gives nil.
    func writeNow<T: Sendable>(_ body: (SQLiteConnection) throws(StorageError) -> T) -> T? {
        switch transactionNow(writing: true, body) {
        case .success(let value): return value
        case .failure(let error):
            let first = reported.withLock { reported in
                defer { reported = true }
                return !reported
            }
            guard first else { return nil }
            report(.notStored(error.databaseFailure ?? DatabaseFailure(reason: "\(error)")))
            return nil
        }
    }

    /// `body` in a write transaction on the queue, its failure returned rather than reported.
    func writeResult<T: Sendable>(
        _ body: @escaping @Sendable (SQLiteConnection) throws(StorageError) -> T
    ) async -> Result<T, StorageError> {
        await onQueue { self.transactionNow(writing: true, body) }
    }

    /// `body` in a read transaction on the queue.
    func read<T: Sendable>(
        _ body: @escaping @Sendable (SQLiteConnection) throws(StorageError) -> T
    ) async -> Result<T, StorageError> {
        await onQueue { self.transactionNow(writing: false, body) }
    }

    /// On the queue: `body` in a transaction of its own.
    func transactionNow<T>(
        writing: Bool, _ body: (SQLiteConnection) throws(StorageError) -> T
    ) -> Result<T, StorageError> {
        if let error = openingError { return .failure(error) }
        return Result { () throws(StorageError) -> T in
            guard let db = database else { throw StorageError.unexpected("the history is not open") }
            return try db.transaction(writing: writing) { () throws(StorageError) -> T in try body(db) }
        }
    }
}
