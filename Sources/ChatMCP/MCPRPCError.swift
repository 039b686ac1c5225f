import ChatDomain

/// A JSON-RPC error a server answered a request with: its code, its message (made safe: one
/// line, cut, secrets taken out) and its data as sent.
struct MCPRPCError: Error, Sendable, Equatable {
    var code: Int
    var message: String
    var data: JSONValue?

    /// The codes only a server of the modern era sends (2026-07-28): a header that does not match
    /// the body, a capability it requires, a protocol version it does not speak.
    static let modernCodes: Set<Int> = [headerMismatch, missingCapability, unsupportedVersion]
    static let headerMismatch = -32020
    static let missingCapability = -32021
    static let unsupportedVersion = -32022

    /// Whether a modern server sent it: the probe's sign of the era.
    var isModern: Bool { Self.modernCodes.contains(code) }

    /// The versions an `UnsupportedProtocolVersionError` says the server speaks.
    var supportedVersions: [String] {
        guard code == Self.unsupportedVersion else { return [] }
        return data?["supported"]?.array?.compactMap(\.string) ?? []
    }
}
