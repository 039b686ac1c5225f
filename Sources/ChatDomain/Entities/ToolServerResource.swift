/// A resource a tool server offers (MCP `resources/list`): something it can read, by URI.
public struct ToolServerResource: Sendable, Equatable {
    /// The server's name in the config.
    public var server: String
    public var uri: String
    public var name: String
    public var title: String?
    public var description: String?
    public var mimeType: String?
    /// Its size in bytes, when the server says.
    public var size: Int?

    public init(
        server: String, uri: String, name: String, title: String? = nil, description: String? = nil,
        mimeType: String? = nil, size: Int? = nil
    ) {
        self.server = server
        self.uri = uri
        self.name = name
        self.title = title
        self.description = description
        self.mimeType = mimeType
        self.size = size
    }
}
