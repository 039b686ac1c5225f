import ChatDomain
import ChatJSON
import ChatSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The sign-ins chat keeps: plain JSON in a file of its own in the data directory
/// (`oauth-tokens.json`), mode 0600, a record per MCP server URL and issuer. Written whatever the
/// history setting says (a sign-in is not a conversation); a file others can read is refused, not
/// used. Each write replaces the file whole (a rotated refresh token replaces the old one at
/// once, never half-written); the writes of one process take turns.
package struct TokenStore: Sendable {
    /// The file's name in the data directory.
    package static let fileName = "oauth-tokens.json"
    private static let turns = Mutex(())

    package let directory: DataDirectory
    package var path: String { directory.file(Self.fileName) }

    package init(directory: DataDirectory) {
        self.directory = directory
    }

    /// Every record; none when there is no file.
    package func records() throws(SignInFailure) -> [TokenRecord] {
        guard FileSystem.exists(path) else { return [] }
        if let mode = FileSystem.mode(path), mode & 0o077 != 0 {
            throw .storeNotPrivate(path: path, mode: mode)
        }
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.read(path)
        } catch {
            switch error {
            case .missing: return []
            case .unreadable(let reason): throw .storeUnreadable(path: path, reason: reason)
            }
        }
        guard let value = try? JSONParser.parse(bytes), let list = value["servers"]?.array else {
            throw .storeUnreadable(path: path, reason: "it is not chat's JSON")
        }
        return list.compactMap(TokenRecord.init(json:))
    }

    /// The newest record for the MCP server at `server`, if any.
    package func record(for server: String) throws(SignInFailure) -> TokenRecord? {
        try records().filter { $0.server == server }.max { $0.savedAt < $1.savedAt }
    }

    /// The record for `server` and `issuer`, if any.
    package func record(for server: String, issuer: String) throws(SignInFailure) -> TokenRecord? {
        try records().first { $0.server == server && $0.issuer == issuer }
    }

    /// Keeps `record`, in place of the one for its server and issuer.
    package func save(_ record: TokenRecord) throws(SignInFailure) {
        try Self.turns.withLock { _ throws(SignInFailure) in
            var list = try records().filter { !($0.server == record.server && $0.issuer == record.issuer) }
            list.append(record)
            try write(list)
        }
    }

    /// Forgets every record for `server`; how many there were. The file goes when none is left.
    @discardableResult
    package func forget(server: String) throws(SignInFailure) -> Int {
        try Self.turns.withLock { _ throws(SignInFailure) in
            let all = try records()
            let kept = all.filter { $0.server != server }
            if kept.isEmpty {
                if FileSystem.exists(path) && unlink(path) != 0 {
                    throw .storeNotWritten(path: path, reason: String(cString: strerror(errno)))
                }
            } else if kept.count != all.count {
                try write(kept)
            }
            return all.count - kept.count
        }
    }

    private func write(_ list: [TokenRecord]) throws(SignInFailure) {
        if let failure = directory.unprepared() {
            throw .storeNotWritten(path: path, reason: failure.reason)
        }
        let value = JSONValue.object(["version": .number(1), "servers": .array(list.map(\.json))])
        do {
            try FileSystem.writeAtomically(Array(((value.prettyJSONText ?? "{}") + "\n").utf8), to: path, mode: 0o600)
        } catch {
            throw .storeNotWritten(path: path, reason: error.reason)
        }
    }
}
