/// What a fetched body is, by its media type (and, when the server names none, by its bytes).
enum WebContentKind: Equatable {
    /// `text/html` or XHTML: turned into readable text (`HTMLText`).
    case html
    /// Other `text/*`, JSON (`application/json`, `…+json`) and XML: attached as they are.
    case text
    /// `image/*`: attached as an image when its bytes are PNG, JPEG, GIF or WebP.
    case image
    /// `application/pdf`: attached whole, or as its text (`pdf: text`), as a PDF file is.
    case pdf
    /// No media type given: decided by the bytes.
    case unnamed
    /// `application/octet-stream`: a PDF or an image by its bytes, else refused.
    case binary
    /// Anything else (video, archives): refused before its body is read.
    case unsupported

    /// The kind `mediaType` (lowercased, without parameters) names.
    init(mediaType: String) {
        switch mediaType {
        case "": self = .unnamed
        case "text/html", "application/xhtml+xml": self = .html
        case "application/pdf": self = .pdf
        case "application/octet-stream", "binary/octet-stream": self = .binary
        case "application/json", "application/xml", "application/javascript", "application/ecmascript":
            self = .text
        case _ where mediaType.hasPrefix("text/"): self = .text
        case _ where mediaType.hasSuffix("+json") || mediaType.hasSuffix("+xml"): self = .text
        case _ where mediaType.hasPrefix("image/"): self = .image
        default: self = .unsupported
        }
    }

    /// How many bytes a body of this kind may have, known by its first `bytes` when the type
    /// does not say: the PDF limit for a PDF, the image limit for an image, `textLimit` for
    /// text; the largest of them while too few bytes are in to tell.
    func limit(startingWith bytes: [UInt8], textLimit: Int) -> Int {
        switch self {
        case .pdf: return ImageFormat.maximumPDFBytes
        case .image: return ImageFormat.maximumBytes
        case .html, .text, .unsupported: return textLimit
        case .unnamed, .binary:
            if ImageFormat.isPDF(bytes) { return ImageFormat.maximumPDFBytes }
            if ImageFormat.mimeType(of: bytes) != nil { return ImageFormat.maximumBytes }
            // 12 bytes tell every kind ImageFormat knows.
            if bytes.count < 12 || self == .binary { return max(textLimit, ImageFormat.maximumPDFBytes) }
            return textLimit
        }
    }
}
