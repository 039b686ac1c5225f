/// Why files could not be attached. Nothing is sent then.
public enum AttachmentError: Error, Sendable, Equatable {
    /// No file at the path.
    case notFound(path: String)
    /// The path is a directory.
    case directory(path: String)
    /// A pattern that matched no file.
    case noMatch(pattern: String)
    /// A page given by its URL could not be fetched or attached.
    case web(WebAttachmentFailure)
    /// A file that is neither text (UTF-8, no NUL bytes) nor an image of a known kind.
    case binary(path: String)
    /// The text of the files for one message is over the limit.
    case tooMuchText(bytes: Int, limit: Int)
    /// An image over the size servers accept.
    case imageTooLarge(path: String, bytes: Int, limit: Int)
    /// An image, and the profile's model takes none (`images: false`).
    case imageNotTaken(path: String)
    /// A PDF over the size servers accept.
    case pdfTooLarge(path: String, bytes: Int, limit: Int)
    /// A PDF to send as its text (`pdf: text`), and no `pdftotext` on the PATH.
    case pdfToTextMissing(path: String)
    /// `pdftotext` could not read the PDF; what it said.
    case pdfUnreadable(path: String, reason: String)
    /// Standard input cannot be attached here (it is the terminal, or it was read already).
    case standardInputUnavailable
    /// The file could not be read; the reason as the system gives it.
    case unreadable(path: String, reason: String)
}
