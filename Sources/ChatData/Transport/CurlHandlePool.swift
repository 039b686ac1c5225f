internal import CCurl

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// libcurl easy handles kept between transfers, by where they connect (`HTTPRequest.connectionKey`),
/// so that the connections, DNS answers, TLS sessions and CA store each one keeps serve the next
/// transfer: a REPL's turns, retries and model lists share one connection for the life of the
/// process.
///
/// A handle is used by one transfer thread at a time (taken, used, put back), as libcurl's thread
/// rules ask; a share handle with `CURL_LOCK_DATA_CONNECT` would let threads use one connection
/// cache at once, which libcurl 7.88 documents as unsupported. Two transfers that overlap take
/// two handles, and so two connections; both are kept.
///
/// A pre-connect (`CurlHTTPClient.preconnect`) puts its handle here once connected; a transfer
/// that starts before then opens a connection of its own.
///
/// `@unchecked Sendable`: `idle`, `connecting` and `inUse` are guarded by `mutex`; the handles in `idle`
/// are used by no thread while they are there.
final class CurlHandlePool: @unchecked Sendable {
    /// Idle handles kept per place; a handle past these is cleaned up when put back.
    static let keptPerKey = 4
    /// The longest a transfer waits for another's handle while that one takes its last bytes:
    /// they are normally on their way already.
    static let drainWait = 0.25

    private var idle: [String: [UnsafeMutableRawPointer]] = [:]
    /// The places a pre-connect is under way to.
    private var connecting: Set<String> = []
    /// The transfers using a handle, by their channels, per place.
    private var inUse: [String: [ResponseChannel]] = [:]
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Signalled when a handle comes back.
    private let returned: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        returned = .allocate(capacity: 1)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        #if canImport(Glibc)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        #endif
        pthread_cond_init(returned, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        for handle in idle.values.joined() { curl_easy_cleanup(handle) }
        pthread_cond_destroy(returned)
        returned.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// A handle for `transfer` to `key`: the one used last for it, with its connections, or a
    /// new one; nil if libcurl cannot make one. Waits, rather than open a second connection, for
    /// a transfer to `key` whose consumer has stopped reading (`ResponseChannel.stopReading`)
    /// while it takes its body's last bytes (up to `drainWait` seconds). It does not wait for a
    /// pre-connect under way: over HTTP/1.1 that one's connection is not kept, and waiting for it
    /// would cost a handshake.
    func take(for key: String, by transfer: ResponseChannel) -> UnsafeMutableRawPointer? {
        pthread_mutex_lock(mutex)
        if idle[key, default: []].isEmpty && hasDraining(key) {
            var deadline = MonotonicClock.deadline(after: Self.drainWait)
            while idle[key, default: []].isEmpty && hasDraining(key) {
                if pthread_cond_timedwait(returned, mutex, &deadline) == ETIMEDOUT { break }
            }
        }
        let kept = idle[key]?.popLast()
        pthread_mutex_unlock(mutex)
        guard let handle = kept ?? curl_easy_init() else { return nil }
        pthread_mutex_lock(mutex)
        inUse[key, default: []].append(transfer)
        pthread_mutex_unlock(mutex)
        return handle
    }

    /// Gives back a handle `take` gave: it keeps its connection for the next transfer to `key`.
    /// Its options are reset here, so that an idle handle points at nothing of a transfer's.
    func put(_ handle: UnsafeMutableRawPointer, for key: String, by transfer: ResponseChannel) {
        curl_easy_reset(handle)
        pthread_mutex_lock(mutex)
        inUse[key]?.removeAll { $0 === transfer }
        let kept = idle[key, default: []].count < Self.keptPerKey
        if kept { idle[key, default: []].append(handle) }
        pthread_cond_broadcast(returned)
        pthread_mutex_unlock(mutex)
        if !kept { curl_easy_cleanup(handle) }
    }

    /// Whether a transfer to `key` is taking its last bytes, its consumer gone. Under `mutex`.
    private func hasDraining(_ key: String) -> Bool {
        inUse[key, default: []].contains { $0.drainingSince.load(ordering: .relaxed) != 0 }
    }

    /// Whether a pre-connect to `key` is worth starting: no handle for it is idle, in use or
    /// connecting. If so, it counts as under way until `endPreconnect`.
    func beginPreconnect(to key: String) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard idle[key, default: []].isEmpty, inUse[key, default: []].isEmpty, !connecting.contains(key) else {
            return false
        }
        connecting.insert(key)
        return true
    }

    /// The pre-connect to `key` is over; its handle, if it made one, goes back to the pool.
    func endPreconnect(to key: String, handle: UnsafeMutableRawPointer?) {
        if let handle { curl_easy_reset(handle) }
        pthread_mutex_lock(mutex)
        let kept = handle != nil && idle[key, default: []].count < Self.keptPerKey
        if kept, let handle { idle[key, default: []].append(handle) }
        connecting.remove(key)
        pthread_cond_broadcast(returned)
        pthread_mutex_unlock(mutex)
        if !kept, let handle { curl_easy_cleanup(handle) }
    }
}
