/// Why a request for an answer failed, as facts: what the server or the connection said, and
/// what is known about why. Presentation words them for people.
public enum ChatError: Error, Sendable, Equatable {
    /// 401: the API key is missing, wrong or revoked.
    case unauthorized(message: String)
    /// 403: the key may not use this model or endpoint.
    case forbidden(message: String)
    /// 404: the model or the URL is not there; `url` is what was requested, `clue` what the
    /// answer suggests.
    case notFound(url: String, message: String, clue: NotFoundClue)
    /// 429: too many requests, or out of quota when `quotaExceeded`.
    case rateLimited(retryAfter: Double?, quotaExceeded: Bool, message: String)
    /// 400 and other 4xx: the server rejected the request.
    case badRequest(status: Int, message: String)
    /// 5xx: the server failed.
    case server(status: Int, message: String)
    /// The server could not be reached or the connection failed: how, and the transport's message.
    case connection(ConnectionFailure, message: String)
    /// No connection within this many seconds.
    case connectTimeout(seconds: Double)
    /// No byte arrived for this many seconds.
    case idleTimeout(seconds: Double)
    /// The server reported an error inside the answer stream.
    case streamError(message: String)
    /// The server said, inside the answer stream, that it is overloaded (Anthropic's
    /// `overloaded_error`).
    case overloaded(message: String)
    /// The stream ended before the answer was complete.
    case streamCut(String)
    /// The server sent something that is not a chat completion.
    case malformedResponse(String)
    /// The server compressed its answer in this encoding (its `Content-Encoding`), which chat
    /// cannot decode.
    case unsupportedEncoding(String)
    /// The request sets `name` (a sampling parameter), which `provider`'s API does not take;
    /// found before sending.
    case unsupportedSetting(name: String, provider: String)
    /// The request sets both `name` and `other`, which `provider`'s API does not take together;
    /// found before sending.
    case unsupportedSettings(name: String, other: String, provider: String)
    /// The answer asked for tools again after `rounds` rounds of tool calls, and no more were
    /// to run.
    case toolRoundLimit(rounds: Int)
    /// The run has spent `spent` US dollars of its budget `limit` (`max_cost`), and is not to
    /// go on: the request was not sent.
    case budgetReached(spent: Double, limit: Double)
    /// The request would be `bytes` long, over the `limit` bytes `provider`'s API documents for
    /// one request, because of the files it carries (base64-encoded): `file` is the largest,
    /// `fileBytes` long encoded. Found before sending.
    case requestTooLarge(file: String, fileBytes: Int, bytes: Int, limit: Int, provider: String)
    /// The person stopped the answer.
    case cancelled
}

extension ChatError {
    /// Whether this is `requestTooLarge`: files too large for one request, found before sending.
    public var isRequestTooLarge: Bool {
        if case .requestTooLarge = self { return true }
        return false
    }
}
