import ChatHTTP

/// How chat fetches a page given by its URL: the run's HTTP client (libcurl), its CA file and
/// proxy, its timeouts, and where the `--verbose` lines go. Nothing of the API's: no key, no
/// configured header field, no client certificate (they belong to the API's origin); no cookies.
package struct WebNetwork: Sendable {
    package var http: any HTTPClient
    /// The CA file that verifies servers (a client certificate is left out).
    package var tls: TLSConfiguration
    /// The config's proxy; nil lets libcurl read the proxy environment variables.
    package var proxy: String?
    /// The proxy a URL's requests go through, as `URL (from SOURCE)`; nil when direct.
    package var proxyInUse: @Sendable (String) -> String?
    /// Seconds to wait for a connection.
    package var connectTimeout: Double
    /// Seconds without a byte before giving up.
    package var idleTimeout: Double
    /// Receives the `--verbose` lines; nil when diagnostics are off.
    package var log: (@Sendable (String) -> Void)?

    /// The network of a run: `tls`'s CA file only.
    package init(
        http: any HTTPClient, tls: TLSConfiguration = TLSConfiguration(), proxy: String? = nil,
        proxyInUse: @escaping @Sendable (String) -> String? = { _ in nil }, connectTimeout: Double = 10,
        idleTimeout: Double = 60, log: (@Sendable (String) -> Void)? = nil
    ) {
        self.http = http
        self.tls = TLSConfiguration(caCertificate: tls.caCertificate, caCertificateSource: tls.caCertificateSource)
        self.proxy = proxy
        self.proxyInUse = proxyInUse
        self.connectTimeout = connectTimeout
        self.idleTimeout = idleTimeout
        self.log = log
    }
}
