/// Where and how to reach an OpenAI-compatible server.
public struct ServerConfiguration: Sendable {
    /// The API root, e.g. `https://api.openai.com/v1`, without a trailing slash.
    public var baseURL: String
    /// Sent as `Authorization: Bearer …`; nil sends none. Never printed.
    public var apiKey: String?
    /// Extra header fields for every request (e.g. Azure's `api-key`).
    public var headers: [(name: String, value: String)]
    /// Seconds to wait for a connection.
    public var connectTimeout: Double
    /// Seconds without a byte before giving up.
    public var idleTimeout: Double
    /// A proxy to use instead of the environment's.
    public var proxy: String?

    /// Creates a configuration; a trailing slash on `baseURL` is dropped.
    public init(
        baseURL: String,
        apiKey: String? = nil,
        headers: [(name: String, value: String)] = [],
        connectTimeout: Double = 10,
        idleTimeout: Double = 60,
        proxy: String? = nil
    ) {
        var url = baseURL
        while url.hasSuffix("/") { url.removeLast() }
        self.baseURL = url
        self.apiKey = apiKey
        self.headers = headers
        self.connectTimeout = connectTimeout
        self.idleTimeout = idleTimeout
        self.proxy = proxy
    }
}
