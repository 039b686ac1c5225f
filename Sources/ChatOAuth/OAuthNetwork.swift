import ChatHTTP

/// How chat reaches a server's OAuth endpoints: the HTTP client of the server's MCP requests, the
/// CA file and proxy a chat run uses, and where the `--verbose` lines go.
package struct OAuthNetwork: Sendable {
    package var http: any HTTPClient
    package var tls: TLSConfiguration
    /// The config's proxy; nil lets libcurl read the proxy environment variables.
    package var proxy: String?
    /// The proxy a URL's requests go through, as `URL (from SOURCE)`; nil when direct.
    package var proxyInUse: @Sendable (String) -> String?
    /// Receives the `--verbose` lines, secrets redacted; nil when diagnostics are off.
    package var log: (@Sendable (String) -> Void)?

    package init(
        http: any HTTPClient, tls: TLSConfiguration = TLSConfiguration(), proxy: String? = nil,
        proxyInUse: @escaping @Sendable (String) -> String? = { _ in nil }, log: (@Sendable (String) -> Void)? = nil
    ) {
        self.http = http
        self.tls = tls
        self.proxy = proxy
        self.proxyInUse = proxyInUse
        self.log = log
    }
}
