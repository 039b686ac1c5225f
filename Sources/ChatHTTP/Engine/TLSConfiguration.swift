/// Which certificates a connection trusts and shows. Verification is always on: there is no
/// setting that turns it off.
public struct TLSConfiguration: Sendable, Equatable {
    /// A file of CA certificates (PEM) to verify the server's certificate with, instead of the
    /// system's bundle; nil: the system's.
    public var caCertificate: String?
    /// Where `caCertificate` was set (`--ca-cert`, `profile work`, `SSL_CERT_FILE`), to name it.
    public var caCertificateSource: String?
    /// A client certificate (PEM) for servers that want mutual TLS; its key may be in the file.
    public var clientCertificate: String?
    /// The client certificate's private key (PEM), when it is not in the certificate's file.
    public var clientKey: String?

    /// Creates a configuration; the defaults trust the system's bundle and show no certificate.
    public init(
        caCertificate: String? = nil, caCertificateSource: String? = nil, clientCertificate: String? = nil,
        clientKey: String? = nil
    ) {
        self.caCertificate = caCertificate
        self.caCertificateSource = caCertificateSource
        self.clientCertificate = clientCertificate
        self.clientKey = clientKey
    }

    /// The trust store as a failure names it: `FILE (from SOURCE)`, or nil for the system's.
    package var trustStore: String? {
        caCertificate.map { file in caCertificateSource.map { "\(file) (from \($0))" } ?? file }
    }
}
