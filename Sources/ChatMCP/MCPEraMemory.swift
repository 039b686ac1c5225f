import ChatDomain
import ChatJSON
import ChatSystem
import Synchronization

/// The era each MCP server was found to speak, remembered across runs, so that only a server's
/// first run pays for the probe: the file `mcp-eras.json` in the data directory (0600), written
/// whatever the history settings say. A server is known by a hash of its command line (stdio) or
/// of its endpoint's scheme, host, port and path (HTTP): the file holds no argument, header or
/// URL. A modern server's capabilities are kept with its version (what it offers is known without
/// asking it again).
final class MCPEraMemory: Sendable {
    /// What is remembered of one server.
    struct Remembered: Sendable, Equatable {
        var version: String
        var capabilities: JSONValue?
    }

    /// The file; nil: nothing is remembered (no data directory).
    let path: String?
    private let directory: DataDirectory?
    /// The file's servers as read, then as written; nil until first read.
    private let known = Mutex<[String: JSONValue]?>(nil)

    /// The memory in `directory` (none: nothing is remembered).
    init(directory: DataDirectory?) {
        self.directory = directory
        path = directory.map { $0.file("mcp-eras.json") }
    }

    /// What is remembered of `entry`'s server, if anything.
    func recall(_ entry: MCPServerEntry) -> Remembered? {
        guard let path else { return nil }
        let servers = known.withLock { known in
            if known == nil { known = Self.read(path) }
            return known ?? [:]
        }
        guard let item = servers[Self.key(entry)], let version = item["protocol_version"]?.string,
            MCPEra(version: version) != nil
        else { return nil }
        return Remembered(version: version, capabilities: item["capabilities"])
    }

    /// Remembers `remembered` for `entry`'s server (nil: forgets it). The file is read again first,
    /// so that what another run wrote meanwhile is kept; it is written only when it changes.
    func remember(_ remembered: Remembered?, for entry: MCPServerEntry) {
        guard let path, let directory else { return }
        let key = Self.key(entry)
        known.withLock { known in
            var servers = Self.read(path)
            var item: [String: JSONValue]?
            if let remembered {
                item = ["protocol_version": .string(remembered.version)]
                if let capabilities = remembered.capabilities { item?["capabilities"] = capabilities }
            }
            let value = item.map(JSONValue.object)
            defer { known = servers }
            guard servers[key] != value else { return }
            servers[key] = value
            guard directory.prepare(),
                let text = JSONValue.object(["servers": .object(servers)]).jsonText
            else { return }
            // A file that cannot be written only costs the next run a probe.
            try? FileSystem.writeAtomically(Array((text + "\n").utf8), to: path, mode: 0o600)
        }
    }

    /// The servers the file at `path` holds; none when it is missing or damaged.
    private static func read(_ path: String) -> [String: JSONValue] {
        guard let bytes = try? FileSystem.read(path), let value = try? JSONParser.parse(bytes) else { return [:] }
        return value["servers"]?.object ?? [:]
    }

    /// How the file knows `entry`'s server: the SHA-256 of its command line, or of its endpoint.
    static func key(_ entry: MCPServerEntry) -> String {
        let identity =
            entry.url.map { "http\n" + MCPHTTPConnection.place(of: $0) }
            ?? "stdio\n" + ([entry.command] + entry.arguments).joined(separator: "\u{0}")
        return SHA256.hex(Array(identity.utf8))
    }
}
