import ChatDomain

extension ErrorWording {
    /// The error's kind as one word for a program (`--json`'s `error` event): `unauthorized`,
    /// `rate_limited`, `connection`, … and `cancelled`.
    public static func kind(of error: ChatError) -> String {
        switch error {
        case .unauthorized: "unauthorized"
        case .forbidden: "forbidden"
        case .notFound: "not_found"
        case .rateLimited(_, let quotaExceeded, _): quotaExceeded ? "quota_exceeded" : "rate_limited"
        case .badRequest: "bad_request"
        case .server: "server"
        case .connection: "connection"
        case .connectTimeout: "connect_timeout"
        case .idleTimeout: "idle_timeout"
        case .streamError: "stream_error"
        case .overloaded: "overloaded"
        case .streamCut: "stream_cut"
        case .malformedResponse: "malformed_response"
        case .unsupportedEncoding: "unsupported_encoding"
        case .unsupportedSetting, .unsupportedSettings: "unsupported_setting"
        case .toolRoundLimit: "tool_round_limit"
        case .budgetReached: "budget_reached"
        case .requestTooLarge: "request_too_large"
        case .cancelled: "cancelled"
        }
    }

    /// The HTTP status the server answered with, when the error is one.
    public static func status(of error: ChatError) -> Int? {
        switch error {
        case .unauthorized: 401
        case .forbidden: 403
        case .notFound: 404
        case .rateLimited: 429
        case .badRequest(let status, _), .server(let status, _): status
        default: nil
        }
    }
}
