internal import CCurl
import ChatSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `HTTPClient` over libcurl: each transfer on a thread of its own, with an easy handle from a
/// pool (`CurlHandlePool`) that keeps its connection for the next transfer to the same place, so
/// a process makes one connection per server, not one per request. libcurl checks a kept
/// connection before using it (one the server closed while idle is replaced, with no error), and
/// sends a request again by itself on a fresh connection only when a reused one failed before any
/// byte of the response.
///
/// Body bytes reach the stream as libcurl delivers them. Cancelling the consumer aborts the
/// transfer at the next write or progress callback (libcurl calls the latter about once a second
/// when nothing arrives). The idle timeout is measured here, not with `LOW_SPEED_*`, which
/// overshoots by several seconds.
public final class CurlHTTPClient: HTTPClient, Sendable {
    private let registry = CurlTransferRegistry()
    private let pool = CurlHandlePool()

    /// Creates a client; libcurl is initialised once per process on first use.
    public init() {
        _ = Self.globalInit
    }

    /// Aborts every running transfer and waits, up to `timeout` seconds, for their threads to end.
    /// Call it before the process exits.
    public func shutdown(timeout: Double = 2) {
        // On a transfer's thread (inside libcurl's callback) this would wait for itself.
        assert(!ConsumerExecutor.runsHere, "shutdown called on a transfer's thread")
        registry.abortEveryTransfer()
        pool.closePrepared()
        registry.waitUntilIdle(timeout: timeout)
    }

    deinit {
        // A connection made ahead that no request took would otherwise wait for ever.
        pool.closePrepared()
    }

    /// Number of transfer threads still running.
    public var activeTransfers: Int {
        registry.active.load(ordering: .acquiring)
    }

    package func send(_ request: HTTPRequest) -> HTTPResponseStream {
        send(request, bufferLimit: ResponseChannel.defaultLimit)
    }

    /// `send`, with at most `bufferLimit` body bytes (plus one write) waiting for the consumer:
    /// past that the transfer waits too, so a fast server cannot fill the memory.
    func send(_ request: HTTPRequest, bufferLimit: Int) -> HTTPResponseStream {
        if bufferLimit == ResponseChannel.defaultLimit, let channel = pool.adopt(request) {
            return HTTPResponseStream(channel)
        }
        let channel = ResponseChannel(limit: bufferLimit)
        let transfer = CurlTransfer(channel: channel, idleTimeout: request.idleTimeout, registry: registry)
        registry.started(channel)
        let started = DetachedThread.start { [pool] in
            Self.perform(request, transfer, pool: pool)
            transfer.registry.ended(transfer.channel)
        }
        if !started {
            registry.ended(channel)
            channel.finish(DataError.transport(code: -1, message: "could not start a thread"))
        }
        return HTTPResponseStream(channel)
    }

    /// Connects, in the background, to where `request` would go (DNS, TCP, proxy, TLS) and sends
    /// nothing, so that the connection is ready when a request is sent: the first request that
    /// fits it (`PreparedConnection.fits`: a POST to `request`'s URL) goes on it, even one sent
    /// while it is still connecting. Whatever fails before then is dropped, for the request that
    /// follows to meet and report. Only for `https://`, where the handshake costs round trips,
    /// and only when no connection there is kept or being made.
    package func preconnect(_ request: HTTPRequest) {
        guard request.url.lowercased().hasPrefix("https://") else { return }
        let channel = ResponseChannel()
        let transfer = CurlTransfer(channel: channel, idleTimeout: request.idleTimeout, registry: registry)
        let connection = PreparedConnection(template: request, transfer: transfer)
        guard pool.beginPreconnect(connection) else { return }
        registry.started(channel)
        let started = DetachedThread.start { [pool] in
            Self.prepare(connection, pool: pool)
            transfer.registry.ended(channel)
        }
        if !started {
            let adopted = connection.close()
            pool.endPreconnect(connection, handle: nil)
            if adopted != nil {
                pool.put(nil, for: connection.key, by: channel)
                channel.finish(DataError.transport(code: -1, message: "could not start a thread"))
            }
            registry.ended(channel)
        }
    }

    /// Makes a connection ahead on the calling (dedicated) thread, and carries the request handed
    /// to it, if one is (the transfer waits for it in the pre-request callback).
    private static func prepare(_ connection: PreparedConnection, pool: CurlHandlePool) {
        let transfer = connection.transfer
        guard let easy = curl_easy_init() else {
            if let request = connection.close() { perform(request, transfer, pool: pool) }
            pool.endPreconnect(connection, handle: nil)
            return
        }
        transfer.easy = easy
        transfer.prepared = connection
        var template = connection.template
        template.body = nil
        let (code, message) = run(easy, for: transfer) { context in
            setRequestOptions(easy, template, headers: nil)
            // The body is read from the transfer once a request is handed over (its size is not
            // known yet: the pre-request callback names it in a header field).
            _ = ccurl_setopt_long(easy, CURLOPT_POST, 1)
            _ = ccurl_setopt_read_function(easy, CurlCallbacks.read)
            _ = ccurl_setopt_pointer(easy, CURLOPT_READDATA, context)
            _ = ccurl_setopt_seek_function(easy, CurlCallbacks.seek)
            _ = ccurl_setopt_pointer(easy, CURLOPT_SEEKDATA, context)
            _ = ccurl_setopt_sockopt_function(easy, CurlCallbacks.sockopt)
            _ = ccurl_setopt_pointer(easy, CURLOPT_SOCKOPTDATA, context)
        }
        transfer.prepared = nil
        guard let request = connection.close() else {
            transfer.easy = nil
            pool.endPreconnect(connection, handle: easy)
            return
        }
        if transfer.preparedConnectionLost || mayResend(code, transfer) {
            // Nothing of the response came: the request goes again on a fresh connection, as
            // libcurl does itself when a kept connection fails that way.
            transfer.easy = nil
            pool.put(easy, for: connection.key, by: transfer.channel)
            let again = CurlTransfer(
                channel: transfer.channel, idleTimeout: request.idleTimeout, registry: transfer.registry)
            perform(request, again, pool: pool)
            return
        }
        finish(request, transfer, on: easy, key: connection.key, code: code, message: message, pool: pool)
    }

    /// Whether a request that went on a connection made ahead, ready before it came, failed the
    /// way a kept connection the server had closed fails: after it was sent, before any byte of
    /// the response. (On one still being made, it failed as a new connection does: libcurl would
    /// not send it again, and nor does this.)
    private static func mayResend(_ code: CURLcode, _ transfer: CurlTransfer) -> Bool {
        guard transfer.reachedServer, transfer.preparedConnectionWaited, !transfer.receivedAnything,
            !transfer.shouldAbort
        else { return false }
        return code == CURLE_SEND_ERROR || code == CURLE_RECV_ERROR || code == CURLE_GOT_NOTHING
    }

    /// The header fields libcurl sends for `request`: its own, and `Expect:` (without it, libcurl
    /// sends `Expect: 100-continue` for large bodies and waits for it). With `length`, the body's
    /// length too, for a body libcurl reads through the read callback.
    static func headerList(_ request: HTTPRequest, length: Int? = nil) -> UnsafeMutablePointer<curl_slist>? {
        var lines = request.headers.map { "\($0.name): \($0.value)" } + ["Expect:"]
        if let length { lines += ["Transfer-Encoding:", "Content-Length: \(length)"] }
        var list: UnsafeMutablePointer<curl_slist>?
        for line in lines { list = curl_slist_append(list, line) }
        return list
    }

    private static let globalInit: Bool = {
        ccurl_openssl_no_atexit()
        return curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
    }()

    /// Runs the whole transfer on the calling (dedicated) thread.
    private static func perform(_ request: HTTPRequest, _ transfer: CurlTransfer, pool: CurlHandlePool) {
        let key = request.connectionKey
        guard let easy = pool.take(for: key, by: transfer.channel) else {
            transfer.channel.finish(DataError.transport(code: -1, message: "libcurl could not start"))
            return
        }
        transfer.easy = easy
        // The transfer frees it when it goes, after its handle went back to the pool, reset.
        transfer.headerList = headerList(request)
        let (code, message) = run(easy, for: transfer) { _ in
            setRequestOptions(easy, request, headers: transfer.headerList)
            transfer.touch()
        }
        finish(request, transfer, on: easy, key: key, code: code, message: message, pool: pool)
    }

    /// Runs `easy` for `transfer` on the calling thread: `configure` sets what is particular to
    /// the transfer (given the callbacks' context, the transfer, kept alive until the end), then
    /// libcurl's error buffer and the callbacks are set, and the transfer performed. What libcurl
    /// returned, and its error message.
    private static func run(
        _ easy: UnsafeMutableRawPointer, for transfer: CurlTransfer, _ configure: (UnsafeMutableRawPointer) -> Void
    ) -> (code: CURLcode, message: String) {
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }
        let context = Unmanaged.passRetained(transfer)
        defer { context.release() }
        configure(context.toOpaque())
        _ = ccurl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer)
        setCallbacks(easy, context: context.toOpaque())
        let code = curl_easy_perform(easy)
        return (code, String(cString: errorBuffer))
    }

    /// Ends a transfer that carried `request`: the handle back in the pool (under `key`) before
    /// the consumer learns the end, so that its next request finds it; then the end, or how it
    /// failed.
    private static func finish(
        _ request: HTTPRequest, _ transfer: CurlTransfer, on easy: UnsafeMutableRawPointer, key: String,
        code: CURLcode, message: String, pool: CurlHandlePool
    ) {
        if code == CURLE_OK { transfer.sendHeadIfNeeded() }
        let error = failure(code, of: request, transfer, message: message)
        transfer.easy = nil
        pool.put(easy, for: key, by: transfer.channel)
        transfer.channel.finish(error)
    }

    /// Sets what the request is: address, header fields, timeouts, proxy, TLS files, body and
    /// method.
    private static func setRequestOptions(
        _ easy: UnsafeMutableRawPointer, _ request: HTTPRequest, headers: UnsafeMutablePointer<curl_slist>?
    ) {
        _ = ccurl_setopt_string(easy, CURLOPT_URL, request.url)
        _ = ccurl_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = ccurl_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        _ = ccurl_setopt_cloexec_sockets(easy)
        _ = ccurl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Int(request.connectTimeout * 1000))
        // A backstop only; the precise idle timeout is measured in the progress callback.
        _ = ccurl_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, 1)
        _ = ccurl_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, Int(request.idleTimeout.rounded(.up)) + 30)
        _ = ccurl_setopt_long(easy, CURLOPT_TCP_KEEPALIVE, 1)
        _ = ccurl_setopt_string(easy, CURLOPT_USERAGENT, "chat/\(ChatVersion.string)")
        _ = ccurl_setopt_slist(easy, CURLOPT_HTTPHEADER, headers)
        if let proxy = request.proxy {
            _ = ccurl_setopt_string(easy, CURLOPT_PROXY, proxy)
        }
        // Verification stays on (libcurl's default; never turned off). A CA file replaces the
        // system's bundle as the file libcurl verifies with.
        if let file = request.tls.caCertificate {
            _ = ccurl_setopt_string(easy, CURLOPT_CAINFO, file)
        }
        if let file = request.tls.clientCertificate {
            _ = ccurl_setopt_string(easy, CURLOPT_SSLCERT, file)
        }
        if let file = request.tls.clientKey {
            _ = ccurl_setopt_string(easy, CURLOPT_SSLKEY, file)
        }
        // "" offers every encoding libcurl decodes; "identity" asks for none. Either way libcurl
        // then decodes a body a server compressed anyway (gzip, deflate, br, zstd), and fails with
        // CURLE_BAD_CONTENT_ENCODING on an encoding it does not know.
        _ = ccurl_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, request.acceptCompression ? "" : "identity")
        if let body = request.body {
            _ = ccurl_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            body.withUnsafeBufferPointer { buffer in
                _ = ccurl_setopt_pointer(
                    easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: buffer.baseAddress))
            }
        }
        if request.method != "GET" && request.method != "POST" {
            _ = ccurl_setopt_string(easy, CURLOPT_CUSTOMREQUEST, request.method)
        }
    }

    /// Hands the transfer (`context`) to the write, header, progress and pre-request callbacks.
    private static func setCallbacks(_ easy: UnsafeMutableRawPointer, context: UnsafeMutableRawPointer) {
        _ = ccurl_setopt_write_function(easy, CURLOPT_WRITEFUNCTION, CurlCallbacks.write)
        _ = ccurl_setopt_pointer(easy, CURLOPT_WRITEDATA, context)
        _ = ccurl_setopt_write_function(easy, CURLOPT_HEADERFUNCTION, CurlCallbacks.header)
        _ = ccurl_setopt_pointer(easy, CURLOPT_HEADERDATA, context)
        _ = ccurl_setopt_long(easy, CURLOPT_NOPROGRESS, 0)
        _ = ccurl_setopt_xferinfo_function(easy, CurlCallbacks.progress)
        _ = ccurl_setopt_pointer(easy, CURLOPT_XFERINFODATA, context)
        _ = ccurl_setopt_prereq_function(easy, CurlCallbacks.prereq)
        _ = ccurl_setopt_pointer(easy, CURLOPT_PREREQDATA, context)
    }

    /// How a transfer that `curl_easy_perform` ended with `code` failed (`message` is libcurl's
    /// error buffer); nil if it did not.
    private static func failure(
        _ code: CURLcode, of request: HTTPRequest, _ transfer: CurlTransfer, message: String
    ) -> (any Error)? {
        if code == CURLE_OK { return nil }
        if transfer.shouldAbort { return CancellationError() }
        if transfer.idleTimedOut { return DataError.idleTimeout(seconds: request.idleTimeout) }
        if code == CURLE_OPERATION_TIMEDOUT {
            return transfer.isConnected
                ? DataError.idleTimeout(seconds: request.idleTimeout)
                : DataError.connectTimeout(seconds: request.connectTimeout)
        }
        let text = message.isEmpty ? String(cString: curl_easy_strerror(code)) : message
        return DataError.transport(code: Int(code.rawValue), message: text)
    }
}
