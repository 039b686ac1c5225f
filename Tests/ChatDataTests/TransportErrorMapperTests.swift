import ChatDomain
import Testing

@testable import ChatHTTP

/// A failed transfer becomes a connection failure of a kind, with libcurl's message as it was.
@Suite("Transport error mapping")
struct TransportErrorMapperTests {
    private static let direct = TransportErrorMapper(proxyInUse: nil)
    private static let proxied = TransportErrorMapper(proxyInUse: "http://127.0.0.1:3128 (from HTTPS_PROXY)")

    @Test(
        "a libcurl code names how the connection failed",
        arguments: [
            // 60 (a certificate that does not verify) and 77 (a CA file that cannot be used) were `.tls`:
            // they now name the trust store (issue 17).
            (7, ConnectionFailure.refused), (6, .hostNotFound), (5, .proxyNotFound), (35, .tls),
            (60, .certificate(trustStore: nil)), (77, .certificate(trustStore: nil)), (52, .other), (28, .other),
        ])
    func codeNamesTheFailure(_ code: Int, _ failure: ConnectionFailure) {
        let error = Self.direct.error(for: DataError.transport(code: code, message: "libcurl says"), midStream: false)
        #expect(error == .connection(failure, message: "libcurl says"))
    }

    @Test("through a proxy, the failures it may cause name the proxy", arguments: [5, 7, 28, 35, 52, 56, 97])
    func proxyFailuresNameTheProxy(_ code: Int) {
        let error = Self.proxied.error(for: DataError.transport(code: code, message: "m"), midStream: false)
        #expect(error == .connection(.proxy("http://127.0.0.1:3128 (from HTTPS_PROXY)"), message: "m"))
    }

    @Test("a certificate that does not verify names the CA file used")
    func certificateNamesTheTrustStore() {
        let mapper = TransportErrorMapper(proxyInUse: nil, trustStore: "/ca.pem (from --ca-cert)")
        let error = mapper.error(for: DataError.transport(code: 60, message: "m"), midStream: false)
        #expect(error == .connection(.certificate(trustStore: "/ca.pem (from --ca-cert)"), message: "m"))
    }

    @Test("a server that wants a client certificate says so, and is not retried")
    func clientCertificateWanted() {
        let failure = DataError.transport(
            code: 56, message: "OpenSSL SSL_read: error:0A00045C:SSL routines::tlsv13 alert certificate required")
        guard case .connection(.clientCertificateWanted, _) = Self.direct.error(for: failure, midStream: false) else {
            Issue.record("not clientCertificateWanted")
            return
        }
        #expect(!TransportErrorMapper.isRetryable(failure))
        #expect(TransportErrorMapper.isRetryable(DataError.transport(code: 56, message: "reset")))
    }

    @Test("through a proxy, a host that is not found is still the host")
    func hostNotFoundThroughAProxy() {
        let error = Self.proxied.error(for: DataError.transport(code: 6, message: "m"), midStream: false)
        #expect(error == .connection(.hostNotFound, message: "m"))
    }

    @Test("once an answer has begun, a transport failure cuts it off")
    func midStreamFailureIsAStreamCut() {
        let error = Self.direct.error(for: DataError.transport(code: 56, message: "reset"), midStream: true)
        #expect(error == .streamCut("reset"))
    }

    @Test("timeouts and cancellation keep their own cases")
    func timeoutsAndCancellation() {
        #expect(
            Self.direct.error(for: DataError.connectTimeout(seconds: 3), midStream: false)
                == .connectTimeout(seconds: 3))
        #expect(Self.direct.error(for: DataError.idleTimeout(seconds: 9), midStream: true) == .idleTimeout(seconds: 9))
        #expect(Self.direct.error(for: CancellationError(), midStream: false) == .cancelled)
    }

    @Test("refused, reset and empty connections and connect timeouts may be retried; DNS, TLS and proxy failures not")
    func retryableFailures() {
        for code in [7, 52, 55, 56] {
            #expect(TransportErrorMapper.isRetryable(DataError.transport(code: code, message: "")))
        }
        for code in [5, 6, 35, 60, 97] {
            #expect(!TransportErrorMapper.isRetryable(DataError.transport(code: code, message: "")))
        }
        #expect(TransportErrorMapper.isRetryable(DataError.connectTimeout(seconds: 1)))
        #expect(!TransportErrorMapper.isRetryable(DataError.idleTimeout(seconds: 1)))
    }
}
