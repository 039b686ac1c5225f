import ChatDomain

extension ErrorWording {
    /// The line for a page that could not be attached from its URL: the URL first, then why.
    static func line(for failure: WebAttachmentFailure) -> String {
        switch failure {
        case .notAURL(let text):
            return "\(ServerText.line(text, limit: 200)) is not a URL chat can fetch: only http:// and https:// pages "
                + "can be attached"
        case .status(let url, let status):
            return "\(url): the server answered \(status)"
        case .tooManyRedirects(let url, let limit):
            return "\(url): more than \(limit) redirects; gave up"
        case .badRedirect(let url):
            return "\(url): a redirect to no http(s) URL; gave up"
        case .insecureRedirect(let url, let target):
            return "\(url): a redirect from https to plain http (\(target)); not followed"
        case .tooLarge(let url, let limit):
            return "\(url): the page is over the \(ByteCount.text(limit)) a fetched page may be "
                + "(max_file_bytes in the config for text)"
        case .unsupportedType(let url, let mediaType):
            return "\(url) is \(ServerText.line(mediaType, limit: 80)): only HTML, text, JSON and PNG, JPEG, GIF "
                + "or WebP images can be attached from a URL"
        case .pdfTooLarge(let url, let limit):
            return "\(url): the PDF is over the \(ByteCount.text(limit)) a PDF may be"
        case .notAPDF(let url):
            return "\(url): the server calls it a PDF (application/pdf), but it does not start as one (%PDF-)"
        case .transfer(let url, .connection(.refused, let message)):
            return "\(url): connection failed: \(ServerText.line(message)) (nothing answers at that address)"
        case .transfer(let url, .connection(.hostNotFound, let message)):
            return "\(url): connection failed: \(ServerText.line(message)) (check the host name in the URL)"
        case .transfer(let url, let error):
            return "\(url): " + line(for: error)
        }
    }
}
