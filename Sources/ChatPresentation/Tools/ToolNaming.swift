import ChatDomain

/// What presentation needs to know of the tools a run offers, from the composition root: which
/// server an offered name (`server__tool`) belongs to, and whether it runs without asking.
public struct ToolNaming: Sendable {
    /// The server and the tool's own name of an offered name; nil when no server offers it.
    public var route: @Sendable (String) -> (server: String, tool: String)?
    /// Whether the offered tool runs without asking (`auto_approve`, `--yes-tools`).
    public var isApproved: @Sendable (String) -> Bool

    public init(
        route: @escaping @Sendable (String) -> (server: String, tool: String)?,
        isApproved: @escaping @Sendable (String) -> Bool
    ) {
        self.route = route
        self.isApproved = isApproved
    }

    /// `server.tool` for an offered name, made safe; the name itself when no server offers it.
    public func shown(_ offeredName: String) -> String {
        guard let (server, tool) = route(offeredName) else { return ServerText.line(offeredName, limit: 80) }
        return ServerText.line(server, limit: 40) + "." + ServerText.line(tool, limit: 60)
    }
}
