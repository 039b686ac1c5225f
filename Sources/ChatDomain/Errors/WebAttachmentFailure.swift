/// Why a page given by its URL (`-f https://…`, `/file URL`) could not be attached. Each names
/// the URL as it may be shown (no credentials). Nothing is sent then.
public enum WebAttachmentFailure: Error, Sendable, Equatable {
    /// Looks like a URL (`scheme://`) but is not an `http` or `https` one chat can fetch.
    case notAURL(String)
    /// The server answered with a status other than 2xx (after any redirects).
    case status(url: String, status: Int)
    /// More redirects than chat follows.
    case tooManyRedirects(url: String, limit: Int)
    /// A redirect whose `Location` is missing or not an `http(s)` URL.
    case badRedirect(url: String)
    /// A redirect from an `https` page to an `http` one (`to`), which chat does not follow.
    case insecureRedirect(url: String, to: String)
    /// The body is over the limit (`max_file_bytes` for text, the image limit for images).
    case tooLarge(url: String, limit: Int)
    /// A PDF over the size servers accept (`limit` bytes).
    case pdfTooLarge(url: String, limit: Int)
    /// Said to be a PDF (`application/pdf`), but its bytes do not start as one does (`%PDF-`).
    case notAPDF(url: String)
    /// A media type chat does not attach (not text, JSON, HTML or an image it knows).
    case unsupportedType(url: String, mediaType: String)
    /// The transfer failed (refused, host not found, TLS, timeouts), as the engine says.
    case transfer(url: String, ChatError)

    /// Whether this is a network failure (exit 1, as any failed request), not bad input (exit 2).
    public var isNetworkFailure: Bool {
        if case .notAURL = self { return false }
        return true
    }
}
