import ChatHTTP
import ChatOAuth

/// How chat reaches its MCP servers over HTTP, taken from the person's settings for the chat
/// server: the CA file that verifies an `https` server (`--ca-cert`, `ca_cert`,
/// `SSL_CERT_FILE`…), the configured proxy, and where the `--verbose` lines go. The chat
/// server's key, header fields and client certificate are not among them: they are its alone.
public struct MCPNetworkSettings: Sendable {
    /// The CA file (and where it was set); never a client certificate.
    var tls = TLSConfiguration()
    /// The config's `proxy`; nil lets libcurl read the proxy environment variables.
    var proxy: String?
    /// The environment, to name the proxy a server's requests go through.
    var environment: [String: String] = [:]
    /// Receives the `--verbose` lines, header values redacted; nil when diagnostics are off.
    var log: (@Sendable (String) -> Void)?
    /// How a server that asks for a sign-in (OAuth) is signed in to; nil: it is not, and its
    /// 401 is a failure like any other.
    package var signIn: SignInSettings?

    /// No CA file, no proxy of the config's, no diagnostics.
    public init() {}

    /// The CA file, proxy and diagnostics of the chat server's `server`; `environment` names
    /// the proxy that a server's requests go through.
    public init(server: ServerConfiguration, environment: [String: String]) {
        tls = TLSConfiguration(
            caCertificate: server.tls.caCertificate, caCertificateSource: server.tls.caCertificateSource)
        proxy = server.proxy
        self.environment = environment
        log = server.diagnostics
    }

    /// The proxy requests to `url` go through, as `URL (from SOURCE)`; nil when they go direct.
    func proxyInUse(for url: String) -> String? {
        ProxyEnvironment(environment: environment).proxy(for: url, configured: proxy)
    }
}
