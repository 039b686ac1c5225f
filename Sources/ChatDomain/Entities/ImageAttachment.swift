/// An image attached to a message, for models that see. The history keeps what identifies it
/// (path, type, size, SHA-256), never its bytes; the bytes are here while the file is known.
public struct ImageAttachment: Sendable, Equatable {
    /// The path as given.
    public var path: String
    /// `image/png`, `image/jpeg`, `image/gif` or `image/webp`.
    public var mimeType: String
    /// The file's size in bytes.
    public var byteCount: Int
    /// The SHA-256 of the bytes, in lower-case hex.
    public var sha256: String
    /// The bytes; nil when the file is no longer there as it was (the request then carries a
    /// note in the image's place).
    public var data: [UInt8]?

    /// Creates an image attachment.
    public init(path: String, mimeType: String, byteCount: Int, sha256: String, data: [UInt8]? = nil) {
        self.path = path
        self.mimeType = mimeType
        self.byteCount = byteCount
        self.sha256 = sha256
        self.data = data
    }

    /// What a request carries in place of an image whose bytes are gone.
    public var unavailableNote: String {
        "[image \(path) is no longer available]"
    }
}
