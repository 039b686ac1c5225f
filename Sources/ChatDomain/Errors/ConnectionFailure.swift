/// How a connection to the server failed.
public enum ConnectionFailure: Sendable, Equatable {
    /// Nothing listens at the address's port.
    case refused
    /// The server's host name could not be resolved.
    case hostNotFound
    /// The proxy's host name could not be resolved (a proxy not known by name, e.g. one only the
    /// transport found).
    case proxyNotFound
    /// The TLS handshake failed.
    case tls
    /// The server's certificate did not verify with this trust store (a CA file, as
    /// `FILE (from SOURCE)`; nil: the system's).
    case certificate(trustStore: String?)
    /// The server wants a client certificate (mutual TLS) and was shown none it accepts.
    case clientCertificateWanted
    /// The connection through this proxy failed; the proxy and where it was set, as
    /// `URL (from SOURCE)`.
    case proxy(String)
    /// Any other failure; the message says what.
    case other
}
