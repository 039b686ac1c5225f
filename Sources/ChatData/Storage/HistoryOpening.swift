import ChatDomain

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opens `history.sqlite` in a data directory: creating and migrating it if needed, under a lock
/// (several first runs may race), in WAL mode with the settings a run of chat wants.
enum HistoryOpening {
    /// The page cache a connection keeps, and the one while many rows are stored or indexed at once.
    static let cacheKiB = 256
    static let bulkCacheKiB = 8192

    /// 250 WAL frames of a 4 KiB page (each with its 24-byte header).
    static let walCheckpointBytes = 250 * (4096 + 24)

    /// The open connection to the history database in `directory`.
    static func connect(in directory: DataDirectory) -> Result<SQLiteConnection, StorageError> {
        if let reason = directory.unpreparedReason() {
            return .failure(
                .database(DatabaseFailure(.creatingDirectory(directory.path), kind: .denied, reason: reason)))
        }
        let path = directory.file("history.sqlite")
        // Creation and migration under an exclusive lock: several first runs may race here.
        let lock = openLockFile(directory.file("history.lock"))
        if lock >= 0 { flock(lock, LOCK_EX) }
        defer {
            if lock >= 0 {
                flock(lock, LOCK_UN)
                close(lock)
            }
        }
        do throws(StorageError) {
            let connection = try SQLiteConnection(path: path)
            try configure(connection)
            try HistorySchema.migrate(connection)
            // The first connection reads the whole WAL (1.1 ms at 250 pages). Past that, what
            // the last runs wrote (a `/load`ed conversation, long answers) goes into the
            // database now, while chat reads its input and sends the request, not at a commit
            // the answer waits for. PASSIVE: never waits for another process. One that fails
            // leaves the WAL as it is, for a later one: the history still opens.
            if FileSystem.size(path + "-wal") ?? 0 > walCheckpointBytes {
                try? connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
            }
            for suffix in ["", "-wal", "-shm"] { _ = FileSystem.restrictIfNeeded(path + suffix, mode: 0o600) }
            return .success(connection)
        } catch {
            var failure = error.databaseFailure ?? DatabaseFailure(reason: "\(error)")
            failure.step = .opening(path)
            return .failure(.database(failure))
        }
    }

    /// The busy timeout, durability, cache and journal settings of a history connection.
    private static func configure(_ connection: SQLiteConnection) throws(StorageError) {
        try connection.setBusyTimeout(milliseconds: 15_000)
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

    /// `open(2)` of the lock file, read-write, created private to its owner.
    private static func openLockFile(_ path: String) -> Int32 {
        open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    }
}
