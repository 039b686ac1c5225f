/// One of a run's tool servers as it stands: the protocol version it was reached with and what it
/// offers, or why it could not be used.
public struct ToolServerStatus: Sendable, Equatable {
    /// The server's name in the config.
    public var server: String
    /// The MCP version spoken with it (`2026-07-28`, `2025-11-25`…); nil when it could not be
    /// reached.
    public var protocolVersion: String?
    /// What it declares it offers: `tools`, `prompts`, `resources`.
    public var offersTools: Bool
    public var offersPrompts: Bool
    public var offersResources: Bool
    /// Why it cannot be used, when it cannot.
    public var failure: ToolServerFailure?

    public init(
        server: String, protocolVersion: String? = nil, offersTools: Bool = false, offersPrompts: Bool = false,
        offersResources: Bool = false, failure: ToolServerFailure? = nil
    ) {
        self.server = server
        self.protocolVersion = protocolVersion
        self.offersTools = offersTools
        self.offersPrompts = offersPrompts
        self.offersResources = offersResources
        self.failure = failure
    }
}
