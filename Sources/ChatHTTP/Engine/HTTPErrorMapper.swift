import ChatDomain
import ChatSystem

/// Maps a non-2xx response to the `ChatError` that says what went wrong, for any provider: the
/// status decides the case, the provider's reader the message.
struct HTTPErrorMapper {
    /// The URL that was requested, to name it in a 404.
    var url: String
    /// Reads the provider's error object from a body; nil when the body holds none.
    var readError: ([UInt8]) -> ServerErrorDetail?

    func error(for head: HTTPResponseHead, body: [UInt8]) -> ChatError {
        let status = head.status
        let detail = readError(body)
        let message = detail?.message ?? bodySummary(status: status, body: body, mediaType: head.mediaType)
        switch status {
        case 401:
            return .unauthorized(message: message)
        case 403:
            return .forbidden(message: message)
        case 404:
            return .notFound(
                url: url, message: message, clue: notFoundClue(message: message, fromAPIError: detail != nil))
        case 429:
            let quota = detail?.quotaExceeded ?? false
            return .rateLimited(retryAfter: Self.retryAfter(head), quotaExceeded: quota, message: message)
        case 500...599:
            return .server(status: status, message: message)
        case 400...499:
            return .badRequest(status: status, message: message)
        case 300...399:
            let location = head.header("location").map { " to \($0)" } ?? ""
            return .malformedResponse("the server redirected\(location) (\(status)); use that address as the base URL")
        default:
            return .malformedResponse("unexpected HTTP status \(status)")
        }
    }

    /// Seconds the server asks to wait: `retry-after-ms`, then `Retry-After` in seconds or as
    /// an HTTP date.
    static func retryAfter(_ head: HTTPResponseHead) -> Double? {
        if let value = head.header("retry-after-ms").flatMap(Double.init), value > 0, value.isFinite {
            return value / 1000
        }
        guard let text = head.header("retry-after") else { return nil }
        if let value = Double(text), value > 0, value.isFinite {
            return value
        }
        if let date = HTTPDate.parse(text) {
            let wait = date - WallClock.now()
            return wait > 0 ? wait : nil
        }
        return nil
    }

    /// What a 404 with `message` suggests: a model that is not there, or a base URL without `/v1`.
    private func notFoundClue(message: String, fromAPIError: Bool) -> NotFoundClue {
        if message.lowercased().contains("model") { return .messageNamesModel }
        if !fromAPIError && !url.contains("/v1/") { return .urlLacksV1 }
        return .unknown
    }

    /// A short description of a body that is not an API error: an HTML page is named, not shown.
    private func bodySummary(status: Int, body: [UInt8], mediaType: String) -> String {
        let text = String(decoding: body.prefix(2048), as: UTF8.self).trimmingASCIIWhitespace()
        let reason = Self.reasonPhrase(status)
        if text.isEmpty { return reason }
        let looksHTML = mediaType.contains("html") || text.hasPrefix("<")
        if looksHTML {
            return "\(reason) (the server sent an HTML page, not an API error; a proxy or gateway may be in the way)"
        }
        let firstLine = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).first.map(String.init) ?? text
        return firstLine.excerpt(limit: 200)
    }

    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 413: return "Payload Too Large"
        case 422: return "Unprocessable Entity"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return "HTTP \(status)"
        }
    }
}
