/// An HTTP request as data, with the transfer limits that apply to it.
package struct HTTPRequest: Sendable {
    package var method: String
    package var url: String
    /// Header fields in order; values may be secret and are never logged unredacted.
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]?
    /// Seconds to wait for the connection (TCP and TLS).
    package var connectTimeout: Double
    /// Seconds without a byte after which the transfer is abandoned.
    package var idleTimeout: Double
    /// A proxy the person configured; nil lets libcurl read the usual environment variables.
    package var proxy: String?
    /// Ask for compressed responses (not for event streams, where compression holds pieces
    /// back). Either way a response compressed in an encoding libcurl knows is decoded.
    package var acceptCompression: Bool = false
    /// The certificates to trust and to show.
    package var tls = TLSConfiguration()

    /// Where the request's connection goes, as far as sharing one goes: the URL up to its path
    /// (scheme and authority, as written), the proxy and the certificates. Requests with the same
    /// key may use one connection. Read from the URL's bytes: it is made for every request, and
    /// the requests of a run all start with one base URL, written one way.
    var connectionKey: String {
        let bytes = url.utf8
        var end = bytes.endIndex
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            let authority = bytes[colon...].dropFirst(3)
            end =
                authority.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
                ?? bytes.endIndex
        }
        let origin = String(Substring(url.utf8[..<end]))
        return [origin, proxy ?? "", tls.caCertificate ?? "", tls.clientCertificate ?? "", tls.clientKey ?? ""]
            .joined(separator: "\u{0}")
    }

    /// A request as given.
    package init(
        method: String, url: String, headers: [(name: String, value: String)], body: [UInt8]? = nil,
        connectTimeout: Double, idleTimeout: Double, proxy: String? = nil, acceptCompression: Bool = false,
        tls: TLSConfiguration = TLSConfiguration()
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.connectTimeout = connectTimeout
        self.idleTimeout = idleTimeout
        self.proxy = proxy
        self.acceptCompression = acceptCompression
        self.tls = tls
    }
}
