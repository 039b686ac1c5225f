internal import CCurl
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
    /// A pre-connect: the transfer stops once connected, before sending anything.
    let preconnectOnly: Bool

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

    init(channel: ResponseChannel, idleTimeout: Double, registry: CurlTransferRegistry, preconnectOnly: Bool = false) {
        self.channel = channel
        self.idleTimeoutNanos = UInt64(max(idleTimeout, 0.001) * 1_000_000_000)
        self.registry = registry
        self.preconnectOnly = preconnectOnly
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

    /// Whether a connection was made, to tell a connect timeout from an idle one.
    var isConnected: Bool {
        if reachedServer { return true }
        guard let easy else { return false }
        var micros: curl_off_t = 0
        _ = ccurl_getinfo_off_t(easy, CURLINFO_CONNECT_TIME_T, &micros)
        return micros > 0
    }
}
