#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few file operations the Data layer needs, over POSIX calls (no Foundation at start-up).
enum FileSystem {
    enum ReadError: Error {
        case missing
        case unreadable(String)
    }

    /// The whole contents of the file at `path`.
    static func read(_ path: String) throws(ReadError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { throw .missing }
            throw .unreadable(String(cString: strerror(code)))
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(String(cString: strerror(errno)))
            }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return bytes
    }

    /// The permission bits of the file at `path`, or nil if it cannot be examined.
    static func mode(_ path: String) -> UInt32? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return UInt32(info.st_mode) & 0o777
    }

    /// `path` with a leading `~/` replaced by the home directory.
    static func expandingTilde(_ path: String, home: String?) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home else { return path }
        return home + path.dropFirst()
    }
}
