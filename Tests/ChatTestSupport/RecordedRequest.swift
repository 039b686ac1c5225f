/// One HTTP request as the loopback server received it.
public struct RecordedRequest: Sendable {
    /// The method, e.g. `POST`.
    public let method: String
    /// The request target as sent, including any query, e.g. `/v1/chat/completions`.
    public let path: String
    /// Header fields with lowercased names; the last value of a repeated name wins.
    public let headers: [String: String]
    /// The body, de-chunked if it was sent chunked.
    public let body: [UInt8]

    public init(method: String, path: String, headers: [String: String], body: [UInt8]) {
        self.method = method
        self.path = path
        var lowered: [String: String] = [:]
        for (name, value) in headers { lowered[name.lowercased()] = value }
        self.headers = lowered
        self.body = body
    }

    /// The body decoded as UTF-8 (invalid bytes repaired).
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// The value of a header field, looked up case-insensitively.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}
