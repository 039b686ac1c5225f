extension ChatError: CustomStringConvertible {
    /// One line saying what happened and, where it helps, what to do.
    public var description: String {
        switch self {
        case .unauthorized(let message):
            return
                "401 unauthorized: \(message) (check your API key: OPENAI_API_KEY or the config's api_key_* settings)"
        case .forbidden(let message):
            return "403 forbidden: \(message) (your API key may not use this model or endpoint)"
        case .notFound(let url, let message):
            return "404 not found at \(url): \(message)"
        case .rateLimited(let retryAfter, let quotaExceeded, let message):
            if quotaExceeded {
                return "429 quota exceeded: \(message) (check your plan and billing; waiting will not help)"
            }
            let wait =
                retryAfter.map { " (the server asks to wait \(Self.seconds($0)))" } ?? " (wait a moment and try again)"
            return "429 rate limited: \(message)\(wait)"
        case .badRequest(let status, let message):
            return "\(status) bad request: \(message)"
        case .server(let status, let message):
            return "\(status) server error: \(message)"
        case .connection(let message):
            return "connection failed: \(message)"
        case .connectTimeout(let seconds):
            return "could not connect within \(Self.seconds(seconds)) (raise it with --connect-timeout)"
        case .idleTimeout(let seconds):
            return "no data from the server for \(Self.seconds(seconds)); gave up (raise it with --idle-timeout)"
        case .streamError(let message):
            return "the server reported an error: \(message)"
        case .streamCut(let message):
            return "the answer was cut off: \(message)"
        case .malformedResponse(let message):
            return "unexpected response from the server: \(message)"
        case .cancelled:
            return "interrupted"
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
