import ChatDomain
import ChatSystem

/// Opens `history.sqlite` in a data directory: creating and migrating it if needed, in WAL mode
/// with the settings a run of chat wants, under `history.lock` (several first runs may race).
/// A database SQLite calls damaged, once an integrity check confirms it, is set aside and a new
/// one started with what could be read of it.
enum HistoryOpening {
    /// The page cache a connection keeps, and the one while many rows are stored or indexed at once.
    static let cacheKiB = 256
    static let bulkCacheKiB = 8192

    /// 250 WAL frames of a 4 KiB page (each with its 24-byte header).
    static let walCheckpointBytes = 250 * (4096 + 24)

    /// Opens the history database in `directory`, salvaging a damaged one. Its failure thrown,
    /// not returned as a `Result`: a `Result` of `DatabaseFailure` cost every run the run-time
    /// instantiation of its type metadata (docs/PERFORMANCE.md, round 17).
    static func open(in directory: DataDirectory) throws(DatabaseFailure) -> OpenHistory {
        if let failure = directory.unprepared() { throw failure }
        let path = directory.file("history.sqlite")
        return try HistoryLock.holding(directory.file("history.lock")) { () throws(DatabaseFailure) in
            let identity = FileIdentity(path: path)
            do throws(DatabaseFailure) {
                return OpenHistory(connection: try connect(path), path: path, identity: identity)
            } catch  where error.kind == .damaged && HistoryDamage.isConfirmed(at: path) {
                return try salvage(path)
            }
        }
    }

    /// After SQLite called the open database (at `path`, with `identity`) damaged and a check
    /// confirmed it: sets it aside and opens a new one with what could be read of it. When
    /// another process did that already, only opens the new one.
    static func recover(in directory: DataDirectory, damaged identity: FileIdentity?)
        throws(DatabaseFailure) -> OpenHistory
    {
        let path = directory.file("history.sqlite")
        return try HistoryLock.holding(directory.file("history.lock")) { () throws(DatabaseFailure) in
            guard FileIdentity(path: path) == identity else {
                let identity = FileIdentity(path: path)
                return OpenHistory(connection: try connect(path), path: path, identity: identity)
            }
            return try salvage(path)
        }
    }

    /// Under the lock: moves the damaged database aside, starts a new one and copies into it.
    private static func salvage(_ path: String) throws(DatabaseFailure) -> OpenHistory {
        let aside = try HistoryDamage.setAside(path).get()
        let identity = FileIdentity(path: path)
        let connection = try connect(path)
        let salvage = HistorySalvager.copy(from: aside, into: connection)
        return OpenHistory(connection: connection, path: path, identity: identity, salvage: salvage)
    }

    /// A connection to the database at `path`, created and migrated if need be.
    private static func connect(_ path: String) throws(DatabaseFailure) -> SQLiteConnection {
        do throws(StorageError) {
            let connection = try SQLiteConnection(path: path)
            try configure(connection)
            // The first connection reads the whole WAL (docs/PERFORMANCE.md, round 2), even frames
            // already checkpointed, until a write starts it over. A migration (once a release,
            // an index built over every answer: 22 MB at 100,000 conversations) goes into the
            // database and the WAL is emptied now, or every run until the next answer would
            // read it (`--list` 17 -> 50 ms). Past that, what the last runs wrote (a `/load`ed
            // conversation, long answers) goes into the database now, while chat reads its
            // input and sends the request, not at a commit the answer waits for. PASSIVE: never
            // waits for another process. One that fails leaves the WAL as it is, for a later
            // one: the history still opens.
            if try HistorySchema.migrate(connection) {
                try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            } else if FileSystem.size(path + "-wal") ?? 0 > walCheckpointBytes {
                try? connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
            }
            for suffix in ["", "-wal", "-shm"] { _ = FileSystem.restrictIfNeeded(path + suffix, mode: 0o600) }
            return connection
        } catch {
            var failure = error.databaseFailure ?? DatabaseFailure(reason: "\(error)")
            failure.step = .opening(path)
            throw failure
        }
    }

    /// The busy timeout, durability, cache and journal settings of a history connection.
    private static func configure(_ connection: SQLiteConnection) throws(StorageError) {
        try connection.setBusyTimeout(milliseconds: HistoryPatience.opening.milliseconds)
        // In WAL mode a commit then does not wait for the disk: a crash or kill of the process
        // loses nothing, a power cut or OS crash may lose the last commits (never consistency).
        // Set first, so that creating a database syncs less too.
        try connection.execute("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON")
        // A run touches few pages: a small page cache (256 KiB, not 2 MiB) keeps the memory
        // of a long answer's write down. The WAL is checkpointed when a run opens it past
        // 250 pages (above), and by SQLite at a commit only past 1,000 (4 MB): a commit's
        // checkpoint (three fsyncs) delays what waits for that commit, such as the answer.
        // With no size limit to keep, the WAL's file is cut back to what it holds when it
        // starts over, so its size tells how much it holds.
        try connection.execute(
            "PRAGMA cache_size = -\(cacheKiB); PRAGMA wal_autocheckpoint = 1000; PRAGMA journal_size_limit = 0")
        let mode = try connection.firstRow("PRAGMA journal_mode = WAL") { row throws(StorageError) in
            try row.column(0, as: String.self)
        }
        guard mode == "wal" else { throw StorageError.unexpected("cannot use WAL mode (\(mode ?? "no mode"))") }
        // Closing runs no checkpoint (two fsyncs a run).
        try connection.disableCheckpointOnClose()
    }

    /// Sets the page cache to the bulk size or back to the usual one.
    static func setCache(_ db: SQLiteConnection, bulk: Bool) throws(StorageError) {
        try db.execute("PRAGMA cache_size = -\(bulk ? bulkCacheKiB : cacheKiB)")
    }
}

/// An open history database: the connection, and which file it opened.
final class OpenHistory {
    let connection: SQLiteConnection
    let path: String
    private let identity: FileIdentity?
    /// What a salvage made of the damaged database this one replaced, if it replaced one.
    let salvage: HistorySalvage?
    /// The busy timeout set on the connection.
    var patience = HistoryPatience.opening

    init(connection: SQLiteConnection, path: String, identity: FileIdentity?, salvage: HistorySalvage? = nil) {
        self.connection = connection
        self.path = path
        self.identity = identity
        self.salvage = salvage
    }

    /// Whether `history.sqlite` is still this file, not a new one that took its place after
    /// another process set this one aside: one `stat`.
    var isCurrent: Bool { FileIdentity(path: path) == identity }

    /// The file's identity when it was opened.
    var fileIdentity: FileIdentity? { identity }
}

/// How long a use of the history waits for another process's lock before it gives up (for
/// now: what it would have written waits in memory for the next write).
enum HistoryPatience: Equatable {
    /// While the database opens.
    case opening
    /// A write the answer waits for: the question, before the answer is read. Given up soon,
    /// the answer goes on and the question is stored with what comes next.
    case short
    /// Everything else.
    case long

    var milliseconds: Int32 {
        switch self {
        case .opening: return 5_000
        case .short: return 2_000
        case .long: return 10_000
        }
    }
}
