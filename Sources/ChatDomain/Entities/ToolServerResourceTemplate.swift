/// A family of resources a tool server can read (MCP `resources/templates/list`): a URI template
/// (RFC 6570) to fill in.
public struct ToolServerResourceTemplate: Sendable, Equatable {
    public var server: String
    public var uriTemplate: String
    public var name: String
    public var title: String?
    public var description: String?
    public var mimeType: String?

    public init(
        server: String, uriTemplate: String, name: String, title: String? = nil, description: String? = nil,
        mimeType: String? = nil
    ) {
        self.server = server
        self.uriTemplate = uriTemplate
        self.name = name
        self.title = title
        self.description = description
        self.mimeType = mimeType
    }
}
