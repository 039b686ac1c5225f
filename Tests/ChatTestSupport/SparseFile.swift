import Foundation

/// A large file for the size limits' tests, made in no time: `header`, then zero bytes up to
/// `size` (a sparse file: nothing is written for them, and reading them costs no disk).
public enum SparseFile {
    /// Writes it at `path` and returns `path`.
    @discardableResult
    public static func write(_ path: String, header: [UInt8], size: Int) throws -> String {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(header).write(to: URL(fileURLWithPath: path))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.truncate(atOffset: UInt64(size))
        return path
    }
}
