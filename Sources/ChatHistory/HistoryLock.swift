#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `history.lock`: an exclusive `flock` around what several first runs could race over
/// (creating and migrating the database) and around setting a damaged one aside. Held a few
/// milliseconds; a process that hangs holding it is waited for only `patience`, then chat goes
/// on without it (SQLite's own locking still keeps the database whole).
enum HistoryLock {
    /// Runs `body` holding the lock at `path` (or, past `patience`, without it).
    static func holding<T, Failure: Error>(
        _ path: String, patience: Duration = .seconds(3), _ body: () throws(Failure) -> T
    ) throws(Failure) -> T {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return try body() }
        defer { close(descriptor) }
        let clock = ContinuousClock()
        let deadline = clock.now + patience
        var held = flock(descriptor, LOCK_EX | LOCK_NB) == 0
        while !held && (errno == EWOULDBLOCK || errno == EINTR) && clock.now < deadline {
            usleep(2_000)
            held = flock(descriptor, LOCK_EX | LOCK_NB) == 0
        }
        defer { if held { flock(descriptor, LOCK_UN) } }
        return try body()
    }
}

/// Which file a path names (its device and inode): tells whether `history.sqlite` is still the
/// file a connection opened, or one that took its place after the first was set aside.
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    /// The file at `path` now; nil when there is none.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
