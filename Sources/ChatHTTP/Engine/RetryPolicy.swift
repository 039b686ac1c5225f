/// When and how long to wait before sending a failed request again: like the official OpenAI
/// SDKs (about 0.5 s doubling to 8 s, with jitter; 408, 409, 429, 5xx and connection failures),
/// but never after any answer text, never for an exhausted quota, and a server's request to wait
/// longer than `maxRetryAfter` is reported instead of slept.
public struct RetryPolicy: Sendable, Equatable {
    /// Retries after the first attempt.
    public var maxRetries: Int
    /// The first backoff, before jitter.
    public var initialDelay: Double
    /// The longest backoff.
    public var maxDelay: Double
    /// The longest wait a server may ask for (`Retry-After`) that is still slept.
    public var maxRetryAfter: Double

    /// Creates a policy; the defaults match the SDKs.
    public init(maxRetries: Int = 2, initialDelay: Double = 0.5, maxDelay: Double = 8, maxRetryAfter: Double = 60) {
        self.maxRetries = maxRetries
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
    }

    /// The wait before retry number `retry` (0 for the first): the server's `retryAfter` if it
    /// gave one, else exponential backoff scaled by a jitter factor from 0.75 to 1.
    func delay(beforeRetry retry: Int, retryAfter: Double?, jitter: Double) -> Double {
        if let retryAfter, retryAfter > 0 { return retryAfter }
        let backoff = min(initialDelay * Double(1 << min(retry, 16)), maxDelay)
        return backoff * (1 - 0.25 * min(max(jitter, 0), 1))
    }

    /// Whether an HTTP failure may be retried: the server's `x-should-retry` decides if present;
    /// else 408, 409, 429 and 5xx, except a 429 for an exhausted quota.
    static func isRetryable(status: Int, shouldRetryHeader: String?, quotaExceeded: Bool) -> Bool {
        switch shouldRetryHeader?.lowercased() {
        case "true": return true
        case "false": return false
        default: break
        }
        if quotaExceeded { return false }
        return status == 408 || status == 409 || status == 429 || (500...599).contains(status)
    }

    /// Whether a transport failure before any response may be retried: refused, reset or empty
    /// connections and connect timeouts — not DNS, TLS or proxy failures, which repeat.
    static func isRetryable(transportCode code: Int) -> Bool {
        [7, 52, 55, 56].contains(code)
    }
}
