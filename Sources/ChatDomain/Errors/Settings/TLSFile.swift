/// A file the TLS connection uses.
public enum TLSFile: Sendable, Equatable {
    /// The CA certificates to verify the server with.
    case caCertificates
    /// The client certificate.
    case clientCertificate
    /// The client certificate's private key.
    case clientKey
}
