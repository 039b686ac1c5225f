/// Where an offered tool comes from: the server (its name in the config) and the server's own
/// name for the tool, which the offered name may have had to change.
public struct ToolOrigin: Sendable, Equatable, Hashable {
    /// The server's name, as the config gives it.
    public var server: String
    /// The tool's name, as the server gives it.
    public var tool: String

    /// The tool `tool` of server `server`.
    public init(server: String, tool: String) {
        self.server = server
        self.tool = tool
    }
}
