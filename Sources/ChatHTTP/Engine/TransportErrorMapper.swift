import ChatDomain

/// Maps a failed transfer (`DataError` from the transport) to the `ChatError` that says what
/// went wrong, as facts (refused, host not found, TLS, proxy, other, and libcurl's message), and
/// says whether sending again may help.
package struct TransportErrorMapper {
    /// The proxy requests go through, as `URL (from SOURCE)`; nil when none.
    package var proxyInUse: String?
    /// The CA file that verifies the server, as `FILE (from SOURCE)`; nil for the system's.
    package var trustStore: String? = nil

    /// `error` as a `ChatError`; `midStream` when an answer had begun; `contentEncoding` is the
    /// response's Content-Encoding, if a head came.
    package func error(for error: any Error, midStream: Bool, contentEncoding: String? = nil) -> ChatError {
        if let error = error as? ChatError { return error }
        if error is CancellationError { return .cancelled }
        guard let error = error as? DataError else { return .connection(.other, message: String(describing: error)) }
        switch error {
        case .connectTimeout(let seconds): return .connectTimeout(seconds: seconds)
        case .idleTimeout(let seconds): return .idleTimeout(seconds: seconds)
        case .transport(Self.unsupportedEncodingCode, _):
            return .unsupportedEncoding(contentEncoding ?? "an unknown encoding")
        case .transport(let code, let message):
            if midStream { return .streamCut(message) }
            if Self.wantsClientCertificate(message) { return .connection(.clientCertificateWanted, message: message) }
            return .connection(failure(code: code), message: message)
        }
    }

    /// Whether the server ended the handshake asking for a client certificate (TLS 1.3's
    /// `certificate_required` alert; libcurl has no code of its own for it, only OpenSSL's words).
    static func wantsClientCertificate(_ message: String) -> Bool {
        message.contains("alert certificate required")
    }

    /// libcurl's `CURLE_BAD_CONTENT_ENCODING`: the body is compressed in an encoding libcurl
    /// cannot decode.
    private static let unsupportedEncodingCode = 61

    /// Whether a failure before any response may be retried: refused, reset or empty
    /// connections and connect timeouts.
    static func isRetryable(_ error: any Error) -> Bool {
        switch error as? DataError {
        case .transport(let code, let message)?:
            return RetryPolicy.isRetryable(transportCode: code) && !wantsClientCertificate(message)
        case .connectTimeout?: return true
        default: return false
        }
    }

    /// How the transfer failed, from libcurl's code: through the proxy if one is in use and the
    /// code could be its fault (couldn't resolve proxy or connect, timeout, TLS, empty reply,
    /// receive failure, proxy handshake).
    private func failure(code: Int) -> ConnectionFailure {
        if let proxy = proxyInUse, [5, 7, 28, 35, 52, 56, 97].contains(code) { return .proxy(proxy) }
        switch code {
        case 5: return .proxyNotFound
        case 6: return .hostNotFound
        case 7: return .refused
        case 60, 77: return .certificate(trustStore: trustStore)
        case 35: return .tls
        default: return .other
        }
    }

    /// A mapper naming `proxyInUse` and `trustStore` in the failures they may explain.
    package init(proxyInUse: String? = nil, trustStore: String? = nil) {
        self.proxyInUse = proxyInUse
        self.trustStore = trustStore
    }
}
