#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few file operations the Data layer needs, over POSIX calls (no Foundation at start-up).
package enum FileSystem {
    package enum ReadError: Error {
        case missing
        case unreadable(String)
    }

    /// Whether there is a file (or anything) at `path`.
    package static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// The whole contents of the file at `path`.
    package static func read(_ path: String) throws(ReadError) -> [UInt8] {
        let fd = try openForReading(path)
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(String(cString: strerror(errno)))
            }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return bytes
    }

    /// Throws what `read` would for `path`, reading one byte of it, not all (a CA bundle is
    /// hundreds of KB that libcurl reads itself).
    package static func checkReadable(_ path: String) throws(ReadError) {
        let fd = try openForReading(path)
        defer { close(fd) }
        var byte: UInt8 = 0
        while systemRead(fd, &byte, 1) < 0 {
            if errno != EINTR { throw .unreadable(String(cString: strerror(errno))) }
        }
    }

    private static func openForReading(_ path: String) throws(ReadError) -> Int32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { throw .missing }
            throw .unreadable(String(cString: strerror(code)))
        }
        return fd
    }

    /// Up to the first `count` bytes of the file at `path`; empty if it cannot be read.
    package static func readPrefix(_ path: String, count: Int) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: count)
        let read = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, count) }
        return Array(buffer.prefix(max(read, 0)))
    }

    package struct WriteError: Error {
        package var reason: String
    }

    /// Writes `bytes` to a temporary file beside `path`, then renames it over `path`, so a reader
    /// never sees half a file. The file gets `mode`.
    ///
    /// The temporary file is always a new one (`O_EXCL`): a link planted at its predictable name,
    /// e.g. in a shared directory, is removed, never followed, so no other file is overwritten or
    /// has its mode changed.
    package static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t) throws(WriteError) {
        let temporary = path + ".tmp-\(getpid())"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { throw WriteError(reason: String(cString: strerror(errno))) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return write(fd, base + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                close(fd)
                unlink(temporary)
                throw WriteError(reason: reason)
            }
            offset += written
        }
        fchmod(fd, mode)
        fsync(fd)
        close(fd)
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw WriteError(reason: reason)
        }
    }

    /// Creates `path` and missing parents with `mode` (0700 for private data).
    package static func makeDirectory(_ path: String, mode: mode_t) -> Bool {
        var current = ""
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            current += "/" + part
            if mkdir(current, mode) != 0 && errno != EEXIST { return false }
        }
        return true
    }

    /// Sets the permission bits of `path`; false if it cannot.
    static func restrict(_ path: String, mode: mode_t) -> Bool {
        chmod(path, mode) == 0
    }

    /// Whether `path` is a directory of this user's whose permission bits are `mode` already: one
    /// `stat`, where `makeDirectory` and `restrict` take a system call per parent and write the inode.
    package static func isDirectory(_ path: String, mode: mode_t) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR && info.st_mode & 0o7777 == mode
            && info.st_uid == geteuid()
    }

    /// `restrict`, only for a file whose bits differ (a `chmod` writes the inode even when they
    /// do not): true when `path` has `mode` now or is not there.
    package static func restrictIfNeeded(_ path: String, mode: mode_t) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return errno == ENOENT }
        return info.st_mode & 0o7777 == mode || chmod(path, mode) == 0
    }

    /// What is at `path`: a regular file, a directory, something else, or nothing that can be
    /// examined (with the reason).
    package enum Kind: Equatable {
        case file(size: Int)
        case directory
        case other
        case missing
        case unreadable(String)
    }

    /// What is at `path`, following links.
    package static func kind(_ path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            return code == ENOENT || code == ENOTDIR ? .missing : .unreadable(String(cString: strerror(code)))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file(size: Int(info.st_size))
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// The size of the regular file at `path`, or nil.
    package static func size(_ path: String) -> Int? {
        if case .file(let size) = kind(path) { return size }
        return nil
    }

    /// The paths that match the glob `pattern`, sorted; none when nothing matches.
    package static func glob(_ pattern: String) -> [String] {
        var result = glob_t()
        defer { globfree(&result) }
        guard systemGlob(pattern, &result) == 0 else { return [] }
        return (0..<Int(result.gl_pathc)).compactMap { index in
            result.gl_pathv[index].map { String(cString: $0) }
        }
    }

    /// The permission bits of the file at `path`, or nil if it cannot be examined.
    package static func mode(_ path: String) -> UInt32? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return UInt32(info.st_mode) & 0o777
    }

    /// `path` from the root: relative to the working directory when it does not start with `/`.
    package static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let directory = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var relative = Substring(path)
        while relative.hasPrefix("./") { relative = relative.dropFirst(2) }
        return (directory == "/" ? "" : directory) + "/" + relative
    }

    /// `path` with a leading `~/` replaced by the home directory.
    package static func expandingTilde(_ path: String, home: String?) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home else { return path }
        return home + path.dropFirst()
    }
}

/// `read(2)`, which `FileSystem.read` hides inside the enum.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

/// `glob(3)`, which `FileSystem.glob` hides inside the enum.
private func systemGlob(_ pattern: String, _ result: inout glob_t) -> Int32 {
    glob(pattern, 0, nil, &result)
}
