internal import CCurl
internal import CProcess
import ChatSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The state one libcurl transfer shares between its thread's callbacks and the async consumer.
///
/// `@unchecked Sendable` because libcurl hands it to C callbacks as a raw pointer. It is safe:
/// the `channel` is Sendable, `lastActivity` is atomic, and every other field is read and
/// written only on the transfer's own thread (in `perform` and the callbacks it runs), never
/// anywhere else.
final class CurlTransfer: @unchecked Sendable {
    let channel: ResponseChannel
    let lastActivity = Atomic<UInt64>(MonotonicClock.nanoseconds())
    let idleTimeoutNanos: UInt64
    let registry: CurlTransferRegistry

    // Transfer thread only.
    var easy: UnsafeMutableRawPointer?
    var headers: [String: String] = [:]
    /// The field the last header line set, which a folded line continues.
    var lastHeader: String?
    var headSent = false
    /// The status line of the header block being read.
    var blockStatus = 0
    var idleTimedOut = false
    /// A connection, new or reused, was ready for the request (libcurl's pre-request callback).
    var reachedServer = false
    /// A connection made ahead, which this transfer makes and which waits, connected, for the
    /// request to hand it (`PreparedConnection.waitForRequest`); nil for a request sent at once.
    var prepared: PreparedConnection?
    /// The connection made ahead was found closed by the server before its request was sent.
    var preparedConnectionLost = false
    /// The connection made ahead was ready, waiting, before its request came: a kept connection,
    /// which may have died unseen (one still being made when its request came is a new one).
    var preparedConnectionWaited = false
    /// The sockets libcurl opened for this transfer (to find the connection's own).
    var sockets: [Int32] = []
    /// The body of a request handed to a connection made ahead, read by libcurl's read
    /// callback from `bodyOffset` on.
    var body: [UInt8] = []
    var bodyOffset = 0
    /// The header fields libcurl sends (set with the request, or by the pre-request callback for
    /// a request handed to a connection made ahead), freed when the transfer ends.
    var headerList: UnsafeMutablePointer<curl_slist>?

    init(channel: ResponseChannel, idleTimeout: Double, registry: CurlTransferRegistry) {
        self.channel = channel
        self.idleTimeoutNanos = UInt64(max(idleTimeout, 0.001) * 1_000_000_000)
        self.registry = registry
    }

    deinit {
        curl_slist_free_all(headerList)
    }

    /// The process is ending, or the consumer is gone, unless it stopped reading a complete
    /// answer whose last bytes may still be taken (`ResponseChannel.stopReading`).
    var shouldAbort: Bool {
        if registry.abortAll.load(ordering: .relaxed) { return true }
        return channel.stopped.load(ordering: .relaxed) && !channel.mayDrain
    }

    func touch() {
        lastActivity.store(MonotonicClock.nanoseconds(), ordering: .relaxed)
    }

    /// Hands body bytes to the consumer, waiting while its buffer is full (the consumer is
    /// behind): the transfer then waits too, instead of piling the response up in memory. The
    /// wait counts as activity, so it never looks like an idle server. False if the transfer is
    /// to stop; bytes nobody reads any more are dropped while the rest of a complete answer may
    /// still be taken.
    func deliver(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let delivered = channel.send(body: bytes)
        touch()
        return delivered || !shouldAbort
    }

    /// Yields the head once, with the status of the final response (after any 1xx or proxy
    /// CONNECT blocks, whose headers were reset when their status line came).
    func sendHeadIfNeeded() {
        guard !headSent, let easy else { return }
        headSent = true
        var status = 0
        _ = ccurl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        channel.send(head: HTTPResponseHead(status: status, headers: headers))
    }

    /// Whether any of the response (a status line, a header, a body byte) arrived.
    var receivedAnything: Bool {
        blockStatus != 0 || headSent
    }

    /// Whether the server closed (or reset) the connection whose local port is `port`, as a
    /// server does with one left idle: checked, without reading, before a request goes on a
    /// connection made ahead.
    func peerClosed(localPort port: Int) -> Bool {
        for socket in sockets {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let named = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
            }
            guard named == 0, Self.port(of: address) == port else { continue }
            var poller = pollfd(fd: socket, events: Int16(POLLIN) | Self.peerShutdown, revents: 0)
            guard poll(&poller, 1, 0) > 0 else { return false }
            return poller.revents & (Self.peerShutdown | Int16(POLLHUP) | Int16(POLLERR)) != 0
        }
        return false
    }

    /// `POLLRDHUP`: the peer shut its side (Linux; Glibc's module leaves it out, as a GNU
    /// extension, so it comes from C). Elsewhere 0, and only a reset connection (`POLLHUP`) is
    /// seen.
    private static let peerShutdown = cprocess_peer_shutdown_event()

    private static func port(of address: sockaddr_storage) -> Int {
        var copy = address
        switch Int32(address.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &copy) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
            }
        case AF_INET6:
            return withUnsafePointer(to: &copy) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin6_port))
                }
            }
        default: return -1
        }
    }

    /// Whether a connection was made, to tell a connect timeout from an idle one.
    var isConnected: Bool {
        if reachedServer { return true }
        guard let easy else { return false }
        var micros: curl_off_t = 0
        _ = ccurl_getinfo_off_t(easy, CURLINFO_CONNECT_TIME_T, &micros)
        return micros > 0
    }
}
