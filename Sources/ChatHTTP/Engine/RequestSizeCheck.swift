import ChatDomain

/// A request carrying files (images, PDFs), held to the size the provider's API documents for
/// one request before it is sent: base64 makes a file 4/3 as large, so a PDF within chat's
/// 32 MiB limit can make a request the server would refuse after the whole upload.
enum RequestSizeCheck {
    /// Throws `ChatError.requestTooLarge` when `body` is over `limit` and `request` carries
    /// files whose bytes go with it, naming the largest of them; a request without files is
    /// left to the server.
    static func check(_ body: [UInt8]?, of request: ChatRequest, limit: Int?, provider: String) throws(ChatError) {
        guard let limit, let body, body.count > limit else { return }
        let files = sentFiles(of: request)
        guard let largest = files.max(by: { $0.byteCount < $1.byteCount }) else { return }
        throw .requestTooLarge(
            file: largest.path, fileBytes: encodedSize(largest.byteCount), bytes: body.count, limit: limit,
            provider: provider)
    }

    /// Before the body is made: throws `ChatError.requestTooLarge` when `request`'s files alone,
    /// base64-encoded, are over `limit` (the request, their total, is then at least that: the
    /// text around them is a few bytes of 32 MB), so that no body of that size is made to be
    /// refused.
    static func check(filesOf request: ChatRequest, limit: Int?, provider: String) throws(ChatError) {
        guard let limit else { return }
        let files = sentFiles(of: request)
        let total = files.reduce(0) { $0 + encodedSize($1.byteCount) }
        guard total > limit, let largest = files.max(by: { $0.byteCount < $1.byteCount }) else { return }
        throw .requestTooLarge(
            file: largest.path, fileBytes: encodedSize(largest.byteCount), bytes: total, limit: limit,
            provider: provider)
    }

    /// The images and PDFs whose bytes go with `request` (those no longer there go as a note).
    private static func sentFiles(of request: ChatRequest) -> [ImageAttachment] {
        request.messages.flatMap(\.images).filter { $0.data != nil }
    }

    /// How long `bytes` bytes are in base64 (with padding).
    static func encodedSize(_ bytes: Int) -> Int { (bytes + 2) / 3 * 4 }
}
