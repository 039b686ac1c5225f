#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A copy of a damaged database whose first 100 bytes (the header SQLite reads before anything
/// else) were overwritten, with a header rebuilt from what chat's databases always have: the
/// pages stay as they were, so what they hold can be read again. The damaged file itself is
/// never written. Its WAL, if any, is copied beside the copy, as SQLite looks for it there.
final class RebuiltHeaderCopy {
    /// The copy's path.
    let path: String
    private let hasWAL: Bool
    private let size: Int

    /// Copies `damagedPath` (and its `-wal`) to `damagedPath.salvage`; nil when it cannot.
    init?(of damagedPath: String) {
        path = damagedPath + ".salvage"
        guard let size = Self.copy(damagedPath, to: path) else { return nil }
        self.size = size
        hasWAL = Self.copy(damagedPath + "-wal", to: path + "-wal") != nil
    }

    deinit {
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    }

    /// The page sizes to try: the one the WAL's header names first, then SQLite's usual ones.
    var pageSizes: [Int] {
        var sizes = [4096, 1024, 8192, 16384, 32768, 65536, 2048, 512]
        let fd = open(path + "-wal", O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            var header = [UInt8](repeating: 0, count: 12)
            if pread(fd, &header, 12, 0) == 12 {
                let named = header[8..<12].reduce(0) { $0 << 8 | Int($1) }
                if sizes.contains(named) { sizes.insert(named, at: 0) }
            }
            close(fd)
        }
        return sizes
    }

    /// Writes a header for pages of `pageSize` over the copy's first 100 bytes.
    func rebuild(pageSize: Int) -> Bool {
        var header = [UInt8](repeating: 0, count: 100)
        header.replaceSubrange(0..<16, with: Array("SQLite format 3\0".utf8))
        header[16] = UInt8(truncatingIfNeeded: (pageSize == 65536 ? 1 : pageSize) >> 8)
        header[17] = UInt8(truncatingIfNeeded: pageSize == 65536 ? 0 : pageSize)
        // WAL mode (2) when there is a WAL to read, else the rollback journal (1).
        header[18] = hasWAL ? 2 : 1
        header[19] = hasWAL ? 2 : 1
        (header[21], header[22], header[23]) = (64, 32, 32)
        put(1, at: 24, in: &header)  // change counter
        put(UInt32(truncatingIfNeeded: size / pageSize), at: 28, in: &header)  // pages
        put(1, at: 40, in: &header)  // schema cookie
        put(4, at: 44, in: &header)  // schema format
        put(1, at: 56, in: &header)  // UTF-8
        put(1, at: 92, in: &header)  // the page count is valid for change 1
        put(3_040_000, at: 96, in: &header)
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        unlink(path + "-shm")
        return pwrite(fd, header, 100, 0) == 100
    }

    private func put(_ value: UInt32, at offset: Int, in header: inout [UInt8]) {
        for index in 0..<4 { header[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(index))) }
    }

    /// Copies the file at `source` to `target` (made private); its size, or nil when it cannot.
    private static func copy(_ source: String, to target: String) -> Int? {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { return nil }
        defer { close(input) }
        let output = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard output >= 0 else { return nil }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count == 0 { return total }
            guard count > 0, buffer.withUnsafeBytes({ write(output, $0.baseAddress, count) }) == count else {
                return nil
            }
            total += count
        }
    }
}
