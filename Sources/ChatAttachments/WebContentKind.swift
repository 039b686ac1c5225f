/// What a fetched body is, by its media type (and, when the server names none, by its bytes).
enum WebContentKind: Equatable {
    /// `text/html` or XHTML: turned into readable text (`HTMLText`).
    case html
    /// Other `text/*`, JSON (`application/json`, `…+json`) and XML: attached as they are.
    case text
    /// `image/*`: attached as an image when its bytes are PNG, JPEG, GIF or WebP.
    case image
    /// `application/pdf`: point 1 of issue 38 (PDF support) takes these; refused until then.
    case pdf
    /// No media type given: decided by the bytes.
    case unnamed
    /// Anything else (video, archives, `application/octet-stream`): refused.
    case unsupported

    /// The kind `mediaType` (lowercased, without parameters) names.
    init(mediaType: String) {
        switch mediaType {
        case "": self = .unnamed
        case "text/html", "application/xhtml+xml": self = .html
        case "application/pdf": self = .pdf
        case "application/json", "application/xml", "application/javascript", "application/ecmascript":
            self = .text
        case _ where mediaType.hasPrefix("text/"): self = .text
        case _ where mediaType.hasSuffix("+json") || mediaType.hasSuffix("+xml"): self = .text
        case _ where mediaType.hasPrefix("image/"): self = .image
        default: self = .unsupported
        }
    }
}
