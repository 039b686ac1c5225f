import ChatDomain

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A history database SQLite called damaged: confirmed by an integrity check (run only then,
/// never on a healthy file's way), and moved aside, with its `-wal` and `-shm`, under a name of
/// its own, `history.sqlite.damaged-YYYYMMDD-HHMMSS`.
enum HistoryDamage {
    /// Whether the database at `path` is damaged: its integrity check finds a fault, or cannot
    /// run because the file is not a database. A check that cannot run for another reason (a
    /// lock, a permission) confirms nothing.
    static func isConfirmed(at path: String) -> Bool {
        do throws(StorageError) {
            let connection = try SQLiteConnection(path: path)
            try connection.setBusyTimeout(milliseconds: 5_000)
            let verdict = try connection.firstRow("PRAGMA quick_check(1)") { row throws(StorageError) in
                try row.column(0, as: String.self)
            }
            return verdict != "ok"
        } catch {
            return error.databaseFailure?.kind == .damaged
        }
    }

    /// Moves the database at `path`, and its `-wal` and `-shm`, to a new name beside it; returns
    /// that name, or the system's reason why the database could not be moved.
    static func setAside(_ path: String) -> Result<String, DatabaseFailure> {
        let stamp = timestamp()
        var aside = "\(path).damaged-\(stamp)"
        var number = 2
        while access(aside, F_OK) == 0 {
            aside = "\(path).damaged-\(stamp)-\(number)"
            number += 1
        }
        // The WAL first: a database moved without its WAL would be read without it. What moved
        // goes back if the rest cannot.
        var moved: [String] = []
        for suffix in ["-wal", "-shm", ""] where access(path + suffix, F_OK) == 0 {
            guard rename(path + suffix, aside + suffix) == 0 else {
                let failure = failure(path)
                for suffix in moved { rename(aside + suffix, path + suffix) }
                return .failure(failure)
            }
            moved.append(suffix)
        }
        return .success(aside)
    }

    private static func failure(_ path: String) -> DatabaseFailure {
        DatabaseFailure(.opening(path), kind: .denied, reason: String(cString: strerror(errno)))
    }

    /// `20260502-140700`, local time.
    private static func timestamp() -> String {
        var now = time(nil)
        var fields = tm()
        localtime_r(&now, &fields)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y%m%d-%H%M%S", &fields)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
