/// One piece of a resource a server read (MCP `resources/read`).
public struct ToolServerResourceContent: Sendable, Equatable {
    /// What it holds.
    public enum Body: Sendable, Equatable {
        case text(String)
        case image(ImageAttachment)
        /// Bytes of another kind (audio, a PDF…), named by type and size.
        case binary(byteCount: Int)
    }

    public var uri: String
    public var mimeType: String?
    public var body: Body

    public init(uri: String, mimeType: String?, body: Body) {
        self.uri = uri
        self.mimeType = mimeType
        self.body = body
    }
}
