internal import CCurl

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
        registry.waitUntilIdle(timeout: timeout)
    }

    /// Number of transfer threads still running.
    public var activeTransfers: Int {
        registry.active.load(ordering: .acquiring)
    }

    func send(_ request: HTTPRequest) -> HTTPResponseStream {
        send(request, bufferLimit: ResponseChannel.defaultLimit)
    }

    /// `send`, with at most `bufferLimit` body bytes (plus one write) waiting for the consumer:
    /// past that the transfer waits too, so a fast server cannot fill the memory.
    func send(_ request: HTTPRequest, bufferLimit: Int) -> HTTPResponseStream {
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
    /// nothing, so that the connection is ready when a request is sent; whatever fails is
    /// dropped, for the request that follows to meet and report. Only for `https://`, and only
    /// when no connection there is kept or being made. libcurl keeps the connection when the
    /// server speaks HTTP/2; over HTTP/1.1 it closes it, and what stays is the DNS answer and
    /// the CA store read.
    func preconnect(_ request: HTTPRequest) {
        guard request.url.lowercased().hasPrefix("https://") else { return }
        let key = request.connectionKey
        guard pool.beginPreconnect(to: key) else { return }
        let channel = ResponseChannel()
        let transfer = CurlTransfer(
            channel: channel, idleTimeout: request.idleTimeout, registry: registry, preconnectOnly: true)
        registry.started(channel)
        let started = DetachedThread.start { [pool] in
            pool.endPreconnect(to: key, handle: Self.connect(request, transfer))
            transfer.registry.ended(channel)
        }
        if !started {
            pool.endPreconnect(to: key, handle: nil)
            registry.ended(channel)
        }
    }

    /// Runs a pre-connect on the calling (dedicated) thread; returns its handle.
    private static func connect(_ request: HTTPRequest, _ transfer: CurlTransfer) -> UnsafeMutableRawPointer? {
        guard let easy = curl_easy_init() else { return nil }
        transfer.easy = easy
        let context = Unmanaged.passRetained(transfer)
        setRequestOptions(easy, request, headers: nil)
        setCallbacks(easy, context: context.toOpaque())
        _ = curl_easy_perform(easy)
        // The handle's options (the transfer among them) are reset before it is kept.
        transfer.easy = nil
        context.release()
        return easy
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

        var headerList: UnsafeMutablePointer<curl_slist>?
        // Without this, libcurl sends `Expect: 100-continue` for large bodies and waits for it.
        for line in request.headers.map({ "\($0.name): \($0.value)" }) + ["Expect:"] {
            headerList = curl_slist_append(headerList, line)
        }
        defer { curl_slist_free_all(headerList) }

        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }

        let context = Unmanaged.passRetained(transfer)
        defer { context.release() }

        setRequestOptions(easy, request, headers: headerList)
        _ = ccurl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer)
        setCallbacks(easy, context: context.toOpaque())

        transfer.touch()
        let code = curl_easy_perform(easy)
        if code == CURLE_OK { transfer.sendHeadIfNeeded() }
        let error = failure(code, of: request, transfer, message: String(cString: errorBuffer))
        // Back in the pool before the consumer learns the end, so its next request finds it.
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
        _ = ccurl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Int(request.connectTimeout * 1000))
        // A backstop only; the precise idle timeout is measured in the progress callback.
        _ = ccurl_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, 1)
        _ = ccurl_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, Int(request.idleTimeout.rounded(.up)) + 30)
        _ = ccurl_setopt_long(easy, CURLOPT_TCP_KEEPALIVE, 1)
        _ = ccurl_setopt_string(easy, CURLOPT_USERAGENT, "chat/\(ChatDataVersion.string)")
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
        _ = ccurl_setopt_write_function(easy, CURLOPT_WRITEFUNCTION, writeCallback)
        _ = ccurl_setopt_pointer(easy, CURLOPT_WRITEDATA, context)
        _ = ccurl_setopt_write_function(easy, CURLOPT_HEADERFUNCTION, headerCallback)
        _ = ccurl_setopt_pointer(easy, CURLOPT_HEADERDATA, context)
        _ = ccurl_setopt_long(easy, CURLOPT_NOPROGRESS, 0)
        _ = ccurl_setopt_xferinfo_function(easy, progressCallback)
        _ = ccurl_setopt_pointer(easy, CURLOPT_XFERINFODATA, context)
        _ = ccurl_setopt_prereq_function(easy, prereqCallback)
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

// The callbacks capture nothing: libcurl hands the transfer back through its user-data pointer.

private let writeCallback: curl_write_callback = { buffer, size, count, userData in
    guard let userData else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userData).takeUnretainedValue()
    if transfer.shouldAbort { return Int(CURL_WRITEFUNC_ERROR) }
    transfer.touch()
    transfer.sendHeadIfNeeded()
    let length = size * count
    if let buffer, length > 0 {
        guard transfer.deliver(UnsafeRawBufferPointer(start: buffer, count: length)) else {
            return Int(CURL_WRITEFUNC_ERROR)
        }
    }
    return length
}

private let headerCallback: curl_write_callback = { buffer, size, count, userData in
    guard let userData else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userData).takeUnretainedValue()
    if transfer.shouldAbort { return 0 }
    transfer.touch()
    let length = size * count
    guard let buffer, length > 0 else { return length }
    let line = String(decoding: UnsafeRawBufferPointer(start: buffer, count: length), as: UTF8.self)
    if line.hasPrefix("HTTP/") {
        // A new response block (1xx, or a proxy's CONNECT answer before the real one).
        transfer.headers = [:]
        transfer.lastHeader = nil
        transfer.blockStatus = Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    } else if line.first == " " || line.first == "\t" {
        // An obsolete folded line (RFC 9112, 5.2) continues the field above: joined to it with
        // a space, never a field of its own.
        if let name = transfer.lastHeader, let value = transfer.headers[name] {
            let more = line.trimmingASCIIWhitespace()
            transfer.headers[name] = more.isEmpty ? value : value.isEmpty ? more : value + " " + more
        }
    } else if line == "\r\n" || line == "\n" {
        // The end of a block: if it is the final response, the head is known before any body.
        var status = 0
        if let easy = transfer.easy { _ = ccurl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status) }
        if transfer.blockStatus >= 200 && status == transfer.blockStatus {
            transfer.sendHeadIfNeeded()
        }
    } else if let colon = line.firstIndex(of: ":") {
        let name = line[..<colon].trimmingASCIIWhitespace().lowercased()
        let value = line[line.index(after: colon)...].trimmingASCIIWhitespace()
        transfer.headers[name] = value
        transfer.lastHeader = name
    }
    return length
}

private let progressCallback: curl_xferinfo_callback = { userData, _, _, _, _ in
    guard let userData else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userData).takeUnretainedValue()
    if transfer.shouldAbort { return 1 }
    guard transfer.isConnected else {
        // Connecting is timed by CURLOPT_CONNECTTIMEOUT; the idle clock starts once connected.
        transfer.touch()
        return 0
    }
    let idle = MonotonicClock.nanoseconds() &- transfer.lastActivity.load(ordering: .relaxed)
    if idle > transfer.idleTimeoutNanos {
        transfer.idleTimedOut = true
        return 1
    }
    return 0
}

/// Called once a connection (new or kept) is ready, before the request is sent: a pre-connect
/// stops here, having sent nothing.
private let prereqCallback: curl_prereq_callback = { userData, _, _, _, _ in
    guard let userData else { return Int32(CURL_PREREQFUNC_OK) }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userData).takeUnretainedValue()
    transfer.reachedServer = true
    return transfer.preconnectOnly || transfer.shouldAbort ? Int32(CURL_PREREQFUNC_ABORT) : Int32(CURL_PREREQFUNC_OK)
}
