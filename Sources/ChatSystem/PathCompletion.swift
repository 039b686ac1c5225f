#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The paths that complete what was typed, for Tab: the entries of the typed directory that
/// begin with the typed name, directories ending in `/`, hidden ones only when a `.` was typed.
public enum PathCompletion {
    /// Completions of `prefix` (relative to the working directory, or absolute, or `~/…` with
    /// `home`), as typed: `Sources/Ch` gives `Sources/ChatData/`, … At most `limit`, sorted.
    public static func paths(completing prefix: String, home: String?, limit: Int = 200) -> [String] {
        let slash = prefix.lastIndex(of: "/")
        let directory = slash.map { String(prefix[...$0]) } ?? ""
        let name = slash.map { String(prefix[prefix.index(after: $0)...]) } ?? prefix
        let opened = directory.isEmpty ? "." : FileSystem.expandingTilde(directory, home: home)
        guard let stream = opendir(opened) else { return [] }
        defer { closedir(stream) }
        var results: [String] = []
        while let entry = readdir(stream) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard entryName != ".", entryName != "..", entryName.hasPrefix(name) else { continue }
            guard !entryName.hasPrefix(".") || name.hasPrefix(".") else { continue }
            var info = stat()
            let isDirectory =
                stat(opened + "/" + entryName, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            results.append(directory + entryName + (isDirectory ? "/" : ""))
            if results.count >= limit * 4 { break }
        }
        return Array(results.sorted().prefix(limit))
    }
}
