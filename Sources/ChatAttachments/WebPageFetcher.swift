import ChatDomain
import ChatHTTP
import ChatSystem

/// Fetches a page given by its URL: a GET with no header field of the API's (only `Accept`),
/// redirects followed by hand, at most `redirectLimit` of them (each a new request that carries
/// nothing of the last), the body read up to its limit and no further. A status other than 2xx
/// after the redirects, a body over the limit, a type chat does not attach, and a failed transfer
/// are each a `WebAttachmentFailure` naming the URL.
struct WebPageFetcher {
    let network: WebNetwork

    /// The types asked for: a page, then text and JSON, then images and PDFs.
    static let accept =
        "text/html, text/*;q=0.9, application/json;q=0.9, image/*;q=0.8, application/pdf;q=0.8, */*;q=0.1"

    /// The most redirects followed for one URL.
    static let redirectLimit = 5

    /// Whether a redirect from `current` to `next` leaves TLS: a page asked for over https is
    /// never read in the clear.
    static func downgrades(from current: WebAddress, to next: WebAddress) -> Bool {
        current.text.lowercased().hasPrefix("https:") && !next.text.lowercased().hasPrefix("https:")
    }

    /// A fetched body and what it is.
    struct Page {
        /// Where it came from, after any redirects.
        var address: WebAddress
        /// The media type the server gave (lowercased, without parameters; empty when none).
        var mediaType: String
        /// The `charset` parameter of its `Content-Type`, lowercased, if any.
        var charset: String?
        var bytes: [UInt8]
    }

    /// The page at `address`; text is held to `textLimit` bytes, an image to the image limit, a
    /// PDF to the PDF limit (32 MiB, whatever `textLimit` is).
    func fetch(_ address: WebAddress, textLimit: Int) async -> Result<Page, WebAttachmentFailure> {
        var current = address
        var redirects = 0
        while true {
            let request = HTTPRequest(
                method: "GET", url: current.text,
                headers: [("Accept", Self.accept)],
                connectTimeout: network.connectTimeout, idleTimeout: network.idleTimeout, proxy: network.proxy,
                acceptCompression: true, tls: network.tls)
            let diagnostics = RequestDiagnostics(
                log: network.log, proxyInUse: network.proxyInUse(current.text), keyHeader: "authorization",
                trustStore: network.tls.trustStore)
            var shown = request
            shown.url = current.shown
            diagnostics.sent(shown)
            let started = MonotonicClock.nanoseconds()
            var parts = network.http.send(request).makeAsyncIterator()
            do {
                guard case .head(let head)? = try await parts.next() else {
                    return .failure(.transfer(url: current.shown, .malformedResponse("no response")))
                }
                diagnostics.received(head, after: started)
                if [301, 302, 303, 307, 308].contains(head.status) {
                    guard redirects < Self.redirectLimit else {
                        return .failure(.tooManyRedirects(url: address.shown, limit: Self.redirectLimit))
                    }
                    guard let location = head.header("location"), let next = current.resolving(location) else {
                        return .failure(.badRedirect(url: current.shown))
                    }
                    if Self.downgrades(from: current, to: next) {
                        return .failure(.insecureRedirect(url: current.shown, to: next.shown))
                    }
                    redirects += 1
                    current = next
                    continue
                }
                guard (200..<300).contains(head.status) else {
                    return .failure(.status(url: current.shown, status: head.status))
                }
                let mediaType = head.mediaType
                let kind = WebContentKind(mediaType: mediaType)
                if kind == .unsupported {
                    return .failure(.unsupportedType(url: current.shown, mediaType: mediaType))
                }
                // Over its limit: a PDF (said so, or known by its first bytes) is said to be one.
                let tooLarge = { (limit: Int, bytes: [UInt8]) -> WebAttachmentFailure in
                    kind == .pdf || ImageFormat.isPDF(bytes)
                        ? .pdfTooLarge(url: current.shown, limit: limit) : .tooLarge(url: current.shown, limit: limit)
                }
                var limit = kind.limit(startingWith: [], textLimit: textLimit)
                if let length = head.header("content-length").flatMap({ Int($0) }), length > limit {
                    return .failure(tooLarge(limit, []))
                }
                var bytes: [UInt8] = []
                while let part = try await parts.next() {
                    guard case .body(let piece) = part else { continue }
                    bytes += piece
                    // A body that names no type is held to its kind's limit once its first bytes tell it.
                    if bytes.count - piece.count < 12 { limit = kind.limit(startingWith: bytes, textLimit: textLimit) }
                    if bytes.count > limit { return .failure(tooLarge(limit, bytes)) }
                }
                return .success(
                    Page(address: current, mediaType: mediaType, charset: Self.charset(of: head), bytes: bytes))
            } catch {
                let mapper = TransportErrorMapper(
                    proxyInUse: network.proxyInUse(current.text), trustStore: network.tls.trustStore)
                return .failure(
                    .transfer(
                        url: current.shown,
                        mapper.error(for: error, midStream: false, contentEncoding: nil)))
            }
        }
    }

    /// The `charset` parameter of the response's `Content-Type`, lowercased.
    private static func charset(of head: HTTPResponseHead) -> String? {
        guard let value = head.header("content-type") else { return nil }
        for parameter in value.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingASCIIWhitespace().lowercased() == "charset" else { continue }
            var text = Substring(pair[1].trimmingASCIIWhitespace())
            if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = text.dropFirst().dropLast() }
            return text.lowercased()
        }
        return nil
    }
}
