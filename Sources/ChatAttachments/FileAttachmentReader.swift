import ChatDomain
import ChatSystem

/// `AttachmentReader` over the file system: text files (UTF-8 without NUL bytes), images
/// (PNG, JPEG, GIF, WebP by their first bytes) and PDFs (`%PDF-`). A directory is refused, and
/// so is any other binary file; a glob pattern (`src/*.swift`) attaches the files it matches; `-`
/// is standard input, when `standardInput` can read it. The text of one message's files (a PDF's
/// extracted text included) is held to `limit` bytes, each image to 20 MiB and each PDF to
/// 32 MiB; for a model that takes no images, an image is refused. A PDF goes whole, or, with
/// `pdf: text`, as its text (`pdftotext`), headed by its name and number of pages.
public struct FileAttachmentReader: AttachmentReader {
    private let limit: Int
    private let home: String?
    private let standardInput: (@Sendable () -> [UInt8]?)?
    private let takesImages: Bool
    private let pdf: PDFHandling

    /// A reader that holds the text of a message's files to `limit` bytes, expands `~/` with
    /// `home`, reads `-` with `standardInput` (nil: `-` is refused), and refuses images unless
    /// the model `takesImages` (the profile's `images`); sends a PDF as `pdf` says.
    public init(
        limit: Int, home: String?, standardInput: (@Sendable () -> [UInt8]?)? = nil, takesImages: Bool = true,
        pdf: PDFHandling = .native
    ) {
        self.limit = limit
        self.home = home
        self.standardInput = standardInput
        self.takesImages = takesImages
        self.pdf = pdf
    }

    public func read(_ paths: [String], adding existing: Attachments) -> Result<Attachments, AttachmentError> {
        var added = Attachments()
        for path in paths {
            switch attachments(at: path) {
            case .success(let found): added = added.adding(found)
            case .failure(let error): return .failure(error)
            }
        }
        let all = existing.adding(added)
        guard all.textByteCount <= limit else { return .failure(.tooMuchText(bytes: all.textByteCount, limit: limit)) }
        return .success(all)
    }

    /// What `path` attaches: standard input, the files a pattern matches, or one file.
    private func attachments(at path: String) -> Result<Attachments, AttachmentError> {
        if path == "-" {
            guard let bytes = standardInput?() else { return .failure(.standardInputUnavailable) }
            return attachment(bytes, path: "(stdin)", location: nil)
        }
        let expanded = FileSystem.expandingTilde(path, home: home)
        guard path.contains(where: { "*?[".contains($0) }) else { return file(expanded, shown: path) }
        let matches = FileSystem.glob(expanded).filter { FileSystem.kind($0) != .directory }
        guard !matches.isEmpty else { return .failure(.noMatch(pattern: path)) }
        var found = Attachments()
        for match in matches {
            switch file(match, shown: match) {
            case .success(let one): found = found.adding(one)
            case .failure(let error): return .failure(error)
            }
        }
        return .success(found)
    }

    /// The file at `path`, named `shown` in the message.
    private func file(_ path: String, shown: String) -> Result<Attachments, AttachmentError> {
        switch FileSystem.kind(path) {
        case .missing: return .failure(.notFound(path: shown))
        case .directory: return .failure(.directory(path: shown))
        case .other: return .failure(.unreadable(path: shown, reason: "not a regular file"))
        case .unreadable(let reason): return .failure(.unreadable(path: shown, reason: reason))
        case .file(let size):
            // A file far over every limit is refused before it is read.
            if size > max(limit, ImageFormat.maximumBytes) {
                let head = FileSystem.readPrefix(path, count: 512)
                if ImageFormat.isPDF(head), size > ImageFormat.maximumPDFBytes {
                    return .failure(.pdfTooLarge(path: shown, bytes: size, limit: ImageFormat.maximumPDFBytes))
                }
                if ImageFormat.mimeType(of: head) != nil {
                    return .failure(.imageTooLarge(path: shown, bytes: size, limit: ImageFormat.maximumBytes))
                }
                if !ImageFormat.isPDF(head) {
                    if head.contains(0) { return .failure(.binary(path: shown)) }
                    return .failure(.tooMuchText(bytes: size, limit: limit))
                }
            }
        }
        do throws(FileSystem.ReadError) {
            return attachment(try FileSystem.read(path), path: shown, location: path)
        } catch {
            switch error {
            case .missing: return .failure(.notFound(path: shown))
            case .unreadable(let reason): return .failure(.unreadable(path: shown, reason: reason))
            }
        }
    }

    /// `bytes` as an image or a text file, or refused as binary. An image keeps its path from the
    /// root, so a conversation continued elsewhere finds it again.
    private func attachment(_ bytes: [UInt8], path: String, location: String?) -> Result<Attachments, AttachmentError> {
        if ImageFormat.isPDF(bytes) { return pdfAttachment(bytes, path: path, location: location) }
        if let mimeType = ImageFormat.mimeType(of: bytes) {
            guard takesImages else { return .failure(.imageNotTaken(path: path)) }
            guard bytes.count <= ImageFormat.maximumBytes else {
                return .failure(.imageTooLarge(path: path, bytes: bytes.count, limit: ImageFormat.maximumBytes))
            }
            let kept = location.map(FileSystem.absolute) ?? path
            return .success(Attachments(images: [ImageFile.attachment(path: kept, mimeType: mimeType, bytes: bytes)]))
        }
        guard !bytes.contains(0), let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(.binary(path: path))
        }
        return .success(Attachments(texts: [TextAttachment(path: path, text: text)]))
    }

    /// The PDF `bytes`: whole (its path kept from the root, as an image's), or its text.
    private func pdfAttachment(_ bytes: [UInt8], path: String, location: String?) -> Result<
        Attachments, AttachmentError
    > {
        guard bytes.count <= ImageFormat.maximumPDFBytes else {
            return .failure(.pdfTooLarge(path: path, bytes: bytes.count, limit: ImageFormat.maximumPDFBytes))
        }
        switch pdf {
        case .native:
            let kept = location.map(FileSystem.absolute) ?? path
            return .success(
                Attachments(images: [
                    ImageFile.attachment(path: kept, mimeType: ImageAttachment.pdfMimeType, bytes: bytes)
                ])
            )
        case .text:
            let extracted = location.map { PDFText.extract($0) } ?? PDFText.extract(bytes: bytes)
            switch extracted {
            case .success(let (text, pages)):
                let label = "\(path) (PDF, \(pages) \(pages == 1 ? "page" : "pages"), its text)"
                return .success(Attachments(texts: [TextAttachment(path: label, text: text)]))
            case .failure(.missing):
                return .failure(.pdfToTextMissing(path: path))
            case .failure(.failed(let reason)):
                return .failure(.pdfUnreadable(path: path, reason: reason))
            }
        }
    }
}
