import ChatDomain
import ChatSystem

/// `AttachmentReader` that fetches what is given as a URL (`http(s)://…`) and hands every other
/// path to `files`: an HTML page as its readable text (`HTMLText`, Markdown), other text and JSON
/// as they are, an image as an image, a PDF as a PDF file is (whole, or its text with `pdf: text`);
/// the text attached under a heading that names the URL (and where it was redirected to). An
/// image or a PDF is named by its URL and marked `fetched`: the history keeps its bytes. Fetched
/// text is data: control characters and escape sequences are removed before it is attached, and
/// it counts toward the same `limit` as the files' text.
/// A URL that cannot be fetched or attached stops the whole read (nothing is attached).
package struct WebAttachmentReader: AttachmentReader {
    private let files: FileAttachmentReader
    private let network: WebNetwork
    private let limit: Int
    private let takesImages: Bool
    private let pdf: PDFHandling

    /// A reader that fetches URLs over `network`, holding text to `limit` bytes (as `files`
    /// does), refusing images unless the model `takesImages`, and sending a PDF as `pdf` says.
    package init(
        files: FileAttachmentReader, network: WebNetwork, limit: Int, takesImages: Bool, pdf: PDFHandling = .native
    ) {
        self.files = files
        self.network = network
        self.limit = limit
        self.takesImages = takesImages
        self.pdf = pdf
    }

    package func read(_ paths: [String], adding existing: Attachments) async -> Result<Attachments, AttachmentError> {
        var all = existing
        for path in paths {
            let read: Result<Attachments, AttachmentError>
            if WebAddress.isURL(path) {
                read = await page(path).map { all.adding($0) }
            } else {
                read = files.read([path], adding: all)
            }
            switch read {
            case .success(let found): all = found
            case .failure(let error): return .failure(error)
            }
        }
        guard all.textByteCount <= limit else { return .failure(.tooMuchText(bytes: all.textByteCount, limit: limit)) }
        return .success(all)
    }

    /// What the page at `url` attaches.
    private func page(_ url: String) async -> Result<Attachments, AttachmentError> {
        guard let address = WebAddress(url) else { return .failure(.web(.notAURL(url))) }
        let fetched: WebPageFetcher.Page
        switch await WebPageFetcher(network: network).fetch(address, textLimit: limit) {
        case .success(let page): fetched = page
        case .failure(let failure): return .failure(.web(failure))
        }
        let shown =
            fetched.address == address ? address.shown : "\(address.shown) (redirected to \(fetched.address.shown))"
        var kind = WebContentKind(mediaType: fetched.mediaType)
        if kind == .pdf || ((kind == .unnamed || kind == .binary) && ImageFormat.isPDF(fetched.bytes)) {
            guard ImageFormat.isPDF(fetched.bytes) else { return .failure(.web(.notAPDF(url: fetched.address.shown))) }
            return pdfAttachment(fetched.bytes, url: address.shown, shown: shown)
        }
        if kind == .image || kind == .unnamed || kind == .binary, let mimeType = ImageFormat.mimeType(of: fetched.bytes)
        {
            guard takesImages else { return .failure(.imageNotTaken(path: address.shown)) }
            return .success(
                Attachments(images: [
                    ImageFile.attachment(path: address.shown, mimeType: mimeType, bytes: fetched.bytes, fetched: true)
                ]))
        }
        if kind == .binary {
            return .failure(.web(.unsupportedType(url: fetched.address.shown, mediaType: fetched.mediaType)))
        }
        if kind == .unnamed {
            guard !fetched.bytes.contains(0) else {
                return .failure(.web(.unsupportedType(url: fetched.address.shown, mediaType: "binary data")))
            }
            kind = Self.looksLikeHTML(fetched.bytes) ? .html : .text
        }
        guard kind == .html || kind == .text else {
            return .failure(.web(.unsupportedType(url: fetched.address.shown, mediaType: fetched.mediaType)))
        }
        let decoded = WebText.decode(fetched.bytes, charset: fetched.charset)
        let text = kind == .html ? HTMLText.markdown(decoded, base: fetched.address) : decoded
        return .success(Attachments(texts: [TextAttachment(path: shown, text: WebText.cleaned(text))]))
    }

    /// The fetched PDF `bytes` (within the PDF limit: the fetcher held them to it): whole, named
    /// by its `url` and kept by the history, or its text headed by `shown` and its pages.
    private func pdfAttachment(_ bytes: [UInt8], url: String, shown: String) -> Result<Attachments, AttachmentError> {
        switch pdf {
        case .native:
            return .success(
                Attachments(images: [
                    ImageFile.attachment(path: url, mimeType: ImageAttachment.pdfMimeType, bytes: bytes, fetched: true)
                ]))
        case .text:
            switch PDFText.extract(bytes: bytes) {
            case .success(let (text, pages)):
                let label = "\(shown) (PDF, \(pages) \(pages == 1 ? "page" : "pages"), its text)"
                return .success(Attachments(texts: [TextAttachment(path: label, text: text)]))
            case .failure(.missing): return .failure(.pdfToTextMissing(path: url))
            case .failure(.failed(let reason)): return .failure(.pdfUnreadable(path: url, reason: reason))
            }
        }
    }

    /// Whether a body that names no type starts as an HTML page does.
    private static func looksLikeHTML(_ bytes: [UInt8]) -> Bool {
        let head = String(decoding: bytes.prefix(512), as: UTF8.self).lowercased().trimmingASCIIWhitespace()
        return head.hasPrefix("<!doctype html") || head.hasPrefix("<html")
    }
}
