import ChatDomain
import ChatSystem

/// The `--verbose` lines about one request: what was sent, what came back and how long it took,
/// with every secret header value redacted.
package struct RequestDiagnostics {
    /// Receives the lines; nil when diagnostics are off.
    package var log: (@Sendable (String) -> Void)?
    /// The proxy requests go through, as `URL (from SOURCE)`; nil when none.
    package var proxyInUse: String?
    /// The header the API key goes in, redacted whatever its name.
    package var keyHeader: String
    /// The CA file that verifies the server, as `FILE (from SOURCE)`; nil for the system's.
    package var trustStore: String? = nil

    /// The request line, its header fields and the size of its body.
    package func sent(_ request: HTTPRequest) {
        guard let log else { return }
        var lines = ["> \(request.method) \(request.url)"]
        lines += request.headers.map { "> " + HeaderRedaction.line($0.name, $0.value, keyHeader: keyHeader) }
        if let body = request.body { lines.append("> \(body.count) body bytes") }
        if let proxy = proxyInUse { lines.append("* through the proxy \(proxy)") }
        if let trustStore, request.url.lowercased().hasPrefix("https:") {
            lines.append("* trusting the CA certificates in \(trustStore)")
        }
        log(lines.joined(separator: "\n"))
    }

    /// The status and header fields of the response, and how long they took. The fields are the
    /// server's words: each is shown as `ServerText` makes it, one line, no escape sequences.
    package func received(_ head: HTTPResponseHead, after started: UInt64) {
        guard let log else { return }
        var lines = ["< HTTP \(head.status) after \(Self.milliseconds(since: started)) ms"]
        lines += head.headers.sorted { $0.key < $1.key }.map {
            "< " + ServerText.line(HeaderRedaction.line($0.key, $0.value, keyHeader: keyHeader), limit: 400)
        }
        log(lines.joined(separator: "\n"))
    }

    /// How many body bytes arrived, and when the body ended.
    func body(_ bytes: Int, after started: UInt64) {
        log?("< \(bytes) body bytes in \(Self.milliseconds(since: started)) ms")
    }

    /// A line of the engine's own (`* …`): what it decided about the request.
    func note(_ text: String) {
        log?("* " + text)
    }

    private static func milliseconds(since start: UInt64) -> Int {
        Int((MonotonicClock.nanoseconds() &- start) / 1_000_000)
    }

    /// Diagnostics written to `log` (none when nil).
    package init(
        log: (@Sendable (String) -> Void)? = nil, proxyInUse: String? = nil, keyHeader: String,
        trustStore: String? = nil
    ) {
        self.log = log
        self.proxyInUse = proxyInUse
        self.keyHeader = keyHeader
        self.trustStore = trustStore
    }
}
