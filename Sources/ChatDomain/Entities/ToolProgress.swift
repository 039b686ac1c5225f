/// How far a running tool call has got, as its server says (MCP `notifications/progress`).
public struct ToolProgress: Sendable, Equatable {
    /// The work done so far (it only grows).
    public var progress: Double
    /// The whole work, when the server knows it.
    public var total: Double?
    /// The server's words for the step, as it sent them (made safe where shown).
    public var message: String?

    /// Progress `progress` of `total`, with the server's `message`.
    public init(progress: Double, total: Double? = nil, message: String? = nil) {
        self.progress = progress
        self.total = total
        self.message = message
    }
}
