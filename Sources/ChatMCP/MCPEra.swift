/// The two eras of MCP a server may speak, and the version spoken in it: the modern one
/// (2026-07-28: no handshake, every request carries its version and the client's capabilities in
/// `_meta`) and the legacy one (up to 2025-11-25: `initialize` once, then a session).
enum MCPEra: Sendable, Equatable {
    case modern(String)
    case legacy(String)

    /// The modern versions chat speaks, newest first.
    static let modernVersions = ["2026-07-28"]
    /// The legacy versions chat speaks, newest first; `initialize` offers the first.
    static let legacyVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]

    /// The era of `version`, when chat speaks it.
    init?(version: String) {
        if Self.modernVersions.contains(version) {
            self = .modern(version)
        } else if Self.legacyVersions.contains(version) {
            self = .legacy(version)
        } else {
            return nil
        }
    }

    /// The version string (`2026-07-28`, `2025-11-25`).
    var version: String {
        switch self {
        case .modern(let version), .legacy(let version): version
        }
    }

    var isModern: Bool {
        if case .modern = self { return true }
        return false
    }
}
