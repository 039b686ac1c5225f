import ChatDomain

/// A request that failed before any answer arrived, with what decides whether to send it again.
struct AttemptFailure: Error {
    var error: ChatError
    var retryable: Bool
    /// Seconds the server asked to wait, if it did.
    var retryAfter: Double?
    /// A few words for the retry note, e.g. `503 Service Unavailable`.
    var summary: String
    /// What an error response's body said, if it held the provider's error object.
    var detail: ServerErrorDetail?

    init(error: ChatError, retryable: Bool, retryAfter: Double?, summary: String, detail: ServerErrorDetail? = nil) {
        self.error = error
        self.retryable = retryable
        self.retryAfter = retryAfter
        self.summary = summary
        self.detail = detail
    }

    /// An error response: retryable as `RetryPolicy` says for its status and `x-should-retry`.
    init(head: HTTPResponseHead, error: ChatError, detail: ServerErrorDetail? = nil) {
        var quota = false
        if case .rateLimited(_, let exceeded, _) = error { quota = exceeded }
        self.init(
            error: error,
            retryable: RetryPolicy.isRetryable(
                status: head.status, shouldRetryHeader: head.header("x-should-retry"), quotaExceeded: quota),
            retryAfter: HTTPErrorMapper.retryAfter(head),
            summary: "\(head.status) \(Self.message(of: error))".excerpt(limit: 80), detail: detail)
    }

    private static func message(of error: ChatError) -> String {
        switch error {
        case .unauthorized(let message), .forbidden(let message), .notFound(_, let message, _),
            .rateLimited(_, _, let message), .badRequest(_, let message), .server(_, let message),
            .malformedResponse(let message):
            return message
        default:
            return String(describing: error)
        }
    }
}
