/// An HTTP request as data, with the transfer limits that apply to it.
struct HTTPRequest: Sendable {
    var method: String
    var url: String
    /// Header fields in order; values may be secret and are never logged unredacted.
    var headers: [(name: String, value: String)]
    var body: [UInt8]?
    /// Seconds to wait for the connection (TCP and TLS).
    var connectTimeout: Double
    /// Seconds without a byte after which the transfer is abandoned.
    var idleTimeout: Double
    /// A proxy the person configured; nil lets libcurl read the usual environment variables.
    var proxy: String?
    /// Ask for compressed responses (not for event streams, where compression holds pieces
    /// back). Either way a response compressed in an encoding libcurl knows is decoded.
    var acceptCompression: Bool = false
    /// The certificates to trust and to show.
    var tls = TLSConfiguration()

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
}
