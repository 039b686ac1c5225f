import ChatSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A connection made ahead (`CurlHTTPClient.preconnect`): a transfer that connects (DNS, TCP,
/// proxy, TLS) and then waits, in libcurl's pre-request callback, having sent nothing, for the
/// request it will carry. The first request that goes where it goes (`template`'s method, URL
/// and limits) is handed to it (`adopt`) and leaves on that connection the moment it is ready,
/// or at once if it already is; if none comes, it is dropped when the process ends, and the
/// server saw a handshake and nothing else.
///
/// Waiting in the callback is what keeps the connection: libcurl closes an HTTP/1.1 connection
/// whose transfer was stopped before its request (a premature end), so a pre-connect that
/// returned would be lost over HTTP/1.1.
///
/// `@unchecked Sendable`: `state` is guarded by `lock`, whose condition the transfer's thread
/// waits on (it is in libcurl's callback: it cannot await).
final class PreparedConnection: @unchecked Sendable {
    private enum State {
        /// Connecting, or connected and waiting for its request.
        case open
        /// A request was handed over.
        case adopted(HTTPRequest)
        /// Nothing more will be handed over: the process is ending, or the transfer ended.
        case closed
    }

    /// What the connection was made for: a request is handed over only if it matches.
    let template: HTTPRequest
    /// The template's `HTTPRequest.connectionKey`.
    let key: String
    /// The transfer that makes the connection and then carries the request.
    let transfer: CurlTransfer
    private var state = State.open
    /// The transfer is in `waitForRequest`, waiting.
    private var waiting = false
    /// The lock; its condition is signalled when a request is handed over or the connection closes.
    private let lock = ThreadCondition()

    init(template: HTTPRequest, transfer: CurlTransfer) {
        self.template = template
        self.key = template.connectionKey
        self.transfer = transfer
    }

    /// Whether `request`, whose connection key is `key`, can go on this connection as it was set
    /// up: a POST with a body to the same URL, with the same limits (the method, address and
    /// limits are fixed once a transfer starts; the header fields and the body are not yet sent).
    func fits(_ request: HTTPRequest, key: String) -> Bool {
        request.method == "POST" && template.method == "POST" && request.body != nil && request.url == template.url
            && key == self.key
            && request.acceptCompression == template.acceptCompression
            && request.connectTimeout == template.connectTimeout && request.idleTimeout == template.idleTimeout
    }

    /// Hands `request` to the connection; false if it no longer takes one.
    func adopt(_ request: HTTPRequest) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard case .open = state else { return false }
        state = .adopted(request)
        lock.signal()
        return true
    }

    /// Waits (on the transfer's thread, connected) until a request is handed over, and whether
    /// it had to (one handed over while the connection was being made did not); nil if the
    /// connection is closed first.
    func waitForRequest() -> (request: HTTPRequest, waited: Bool)? {
        lock.lock()
        defer { lock.unlock() }
        let waited = isOpen
        while isOpen {
            waiting = true
            lock.wait()
        }
        waiting = false
        if case .adopted(let request) = state { return (request, waited) }
        return nil
    }

    /// Whether the transfer is waiting for its request now (for tests).
    var isWaiting: Bool {
        lock.lock()
        defer { lock.unlock() }
        return waiting
    }

    private var isOpen: Bool {
        if case .open = state { return true }
        return false
    }

    /// Takes no request from now on; returns the one handed over, if any.
    @discardableResult
    func close() -> HTTPRequest? {
        lock.lock()
        defer { lock.unlock() }
        if case .adopted(let request) = state { return request }
        state = .closed
        lock.signal()
        return nil
    }
}
