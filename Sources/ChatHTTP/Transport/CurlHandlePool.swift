internal import CCurl
import ChatSystem

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
/// A connection made ahead (`PreparedConnection`) is listed here until the first request that
/// fits it is handed to it (`adopt`), even while it is still connecting.
///
/// `@unchecked Sendable`: `idle`, `prepared` and `inUse` are guarded by `lock`; the handles in
/// `idle` are used by no thread while they are there.
final class CurlHandlePool: @unchecked Sendable {
    /// Idle handles kept per place; a handle past these is cleaned up when put back.
    static let keptPerKey = 4
    /// The longest a transfer waits for another's handle while that one takes its last bytes:
    /// they are normally on their way already.
    static let drainWait = 0.25

    private var idle: [String: [UnsafeMutableRawPointer]] = [:]
    /// The connections made ahead that wait for a request, per place.
    private var prepared: [String: PreparedConnection] = [:]
    /// The transfers using a handle, by their channels, per place.
    private var inUse: [String: [ResponseChannel]] = [:]
    /// The lock; its condition is signalled when a handle comes back.
    private let lock = ThreadCondition()

    deinit {
        for handle in idle.values.joined() { curl_easy_cleanup(handle) }
    }

    /// A handle for `transfer` to `key`: the one used last for it, with its connections, or a
    /// new one; nil if libcurl cannot make one. Waits, rather than open a second connection, for
    /// a transfer to `key` whose consumer has stopped reading (`ResponseChannel.stopReading`)
    /// while it takes its body's last bytes (up to `drainWait` seconds). A request that fits a
    /// connection made ahead goes there instead (`adopt`).
    func take(for key: String, by transfer: ResponseChannel) -> UnsafeMutableRawPointer? {
        lock.lock()
        if idle[key, default: []].isEmpty && hasDraining(key) {
            let deadline = MonotonicClock.deadline(after: Self.drainWait)
            while idle[key, default: []].isEmpty && hasDraining(key) {
                if !lock.wait(until: deadline) { break }
            }
        }
        let kept = idle[key]?.popLast()
        lock.unlock()
        guard let handle = kept ?? curl_easy_init() else { return nil }
        lock.lock()
        inUse[key, default: []].append(transfer)
        lock.unlock()
        return handle
    }

    /// Gives back a handle `take` gave: it keeps its connection for the next transfer to `key`.
    /// Its options are reset here, so that an idle handle points at nothing of a transfer's.
    func put(_ handle: UnsafeMutableRawPointer?, for key: String, by transfer: ResponseChannel) {
        keep(handle, for: key) { inUse[key]?.removeAll { $0 === transfer } }
    }

    /// Resets `handle` and keeps it for `key` (or cleans it up past `keptPerKey`), running
    /// `update` under the lock with it, then wakes a transfer waiting for a handle.
    private func keep(_ handle: UnsafeMutableRawPointer?, for key: String, _ update: () -> Void) {
        if let handle { curl_easy_reset(handle) }
        lock.lock()
        update()
        let kept = handle != nil && idle[key, default: []].count < Self.keptPerKey
        if kept, let handle { idle[key, default: []].append(handle) }
        lock.broadcast()
        lock.unlock()
        if !kept, let handle { curl_easy_cleanup(handle) }
    }

    /// Whether a transfer to `key` is taking its last bytes, its consumer gone. Under `lock`.
    private func hasDraining(_ key: String) -> Bool {
        inUse[key, default: []].contains { $0.drainingSince.load(ordering: .relaxed) != 0 }
    }

    /// Whether a connection made ahead to `key` is worth starting: no handle for it is idle, in
    /// use or being prepared. If so, `connection` is listed until it is adopted or ended.
    func beginPreconnect(_ connection: PreparedConnection) -> Bool {
        let key = connection.key
        lock.lock()
        defer { lock.unlock() }
        guard idle[key, default: []].isEmpty, inUse[key, default: []].isEmpty, prepared[key] == nil else {
            return false
        }
        prepared[key] = connection
        return true
    }

    /// The channel of a connection made ahead that takes `request` (which then counts as using
    /// that connection's handle, given back with `put`), or nil.
    func adopt(_ request: HTTPRequest) -> ResponseChannel? {
        lock.lock()
        let none = prepared.isEmpty
        lock.unlock()
        if none { return nil }
        let key = request.connectionKey
        lock.lock()
        defer { lock.unlock() }
        guard let connection = prepared[key], connection.fits(request, key: key), connection.adopt(request) else {
            return nil
        }
        prepared[key] = nil
        let channel = connection.transfer.channel
        inUse[key, default: []].append(channel)
        return channel
    }

    /// A connection made ahead ended with no request; its handle, if it made one, goes back to
    /// the pool.
    func endPreconnect(_ connection: PreparedConnection, handle: UnsafeMutableRawPointer?) {
        let key = connection.key
        keep(handle, for: key) { if prepared[key] === connection { prepared[key] = nil } }
    }

    /// Closes every connection made ahead that waits for a request: the process is ending.
    func closePrepared() {
        lock.lock()
        let waiting = Array(prepared.values)
        lock.unlock()
        for connection in waiting { connection.close() }
    }
}
