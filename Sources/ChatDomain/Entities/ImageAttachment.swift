/// A file attached to a message by its bytes: an image, for models that see, or a PDF
/// (`application/pdf`), for models that read them. For a file on disk the history keeps what
/// identifies it (path, type, size, SHA-256) and reads it again; one fetched from a URL
/// (`fetched`) it keeps whole, as it cannot be fetched the same again.
public struct ImageAttachment: Sendable, Equatable {
    /// The path as given.
    public var path: String
    /// `image/png`, `image/jpeg`, `image/gif`, `image/webp`, or `application/pdf`.
    public var mimeType: String
    /// The file's size in bytes.
    public var byteCount: Int
    /// The SHA-256 of the bytes, in lower-case hex.
    public var sha256: String
    /// The bytes; nil when the file is no longer there as it was (the request then carries a
    /// note in the image's place).
    public var data: [UInt8]?
    /// Fetched from a URL (`path` is the URL): the history keeps its bytes.
    public var fetched: Bool

    /// Creates an image attachment.
    public init(
        path: String, mimeType: String, byteCount: Int, sha256: String, data: [UInt8]? = nil, fetched: Bool = false
    ) {
        self.path = path
        self.mimeType = mimeType
        self.byteCount = byteCount
        self.sha256 = sha256
        self.data = data
        self.fetched = fetched
    }

    /// The MIME type of a PDF.
    public static let pdfMimeType = "application/pdf"

    /// Whether it is a PDF, not an image.
    public var isPDF: Bool { mimeType == Self.pdfMimeType }

    /// The file's name without its directories (`report.pdf`), as a PDF goes to a server; for a
    /// fetched one, the last part of the URL's path (`document.pdf` when it has none).
    public var fileName: String {
        guard fetched else { return path.split(separator: "/").last.map(String.init) ?? path }
        var rest = Substring(path)
        if let scheme = rest.firstRange(of: "://") { rest = rest[scheme.upperBound...] }
        rest = rest.prefix { $0 != "?" && $0 != "#" }
        guard let slash = rest.firstIndex(of: "/") else { return "document.pdf" }
        let name = rest[slash...].split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        return name.isEmpty ? "document.pdf" : String(name)
    }

    /// What a request carries in place of an image or a PDF whose bytes are gone.
    public var unavailableNote: String {
        "[\(isPDF ? "PDF" : "image") \(path) is no longer available]"
    }
}
