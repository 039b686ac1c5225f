internal import CCurl
import ChatSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The C callbacks `CurlHTTPClient` gives libcurl. They capture nothing: libcurl hands the
/// transfer (`CurlTransfer`) back through the user-data pointer each is set with.
enum CurlCallbacks {
    static let write: curl_write_callback = { buffer, size, count, userData in
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

    static let header: curl_write_callback = { buffer, size, count, userData in
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

    static let progress: curl_xferinfo_callback = { userData, _, _, _, _ in
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

    /// Called once a connection (new or kept) is ready, before the request is sent. A connection
    /// made ahead waits here, having sent nothing, for its request; it is then checked (the server
    /// may have closed it while it waited) and given the request's header fields and body.
    static let prereq: curl_prereq_callback = { userData, _, _, _, localPort in
        guard let userData else { return Int32(CURL_PREREQFUNC_OK) }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(userData).takeUnretainedValue()
        transfer.reachedServer = true
        if transfer.shouldAbort { return Int32(CURL_PREREQFUNC_ABORT) }
        guard let connection = transfer.prepared else { return Int32(CURL_PREREQFUNC_OK) }
        guard let (request, waited) = connection.waitForRequest(), !transfer.shouldAbort, let easy = transfer.easy
        else {
            return Int32(CURL_PREREQFUNC_ABORT)
        }
        transfer.preparedConnectionWaited = waited
        transfer.touch()
        if transfer.peerClosed(localPort: Int(localPort)) {
            transfer.preparedConnectionLost = true
            return Int32(CURL_PREREQFUNC_ABORT)
        }
        transfer.body = request.body ?? []
        transfer.bodyOffset = 0
        // libcurl reads the header fields when it writes the request, after this callback. (It
        // calls this again if it sends the request again on a new connection: the list the last
        // call made goes then.)
        let previous = transfer.headerList
        transfer.headerList = CurlHTTPClient.headerList(request, length: transfer.body.count)
        _ = ccurl_setopt_slist(easy, CURLOPT_HTTPHEADER, transfer.headerList)
        curl_slist_free_all(previous)
        return Int32(CURL_PREREQFUNC_OK)
    }

    /// The body of a request handed to a connection made ahead, as libcurl asks for it.
    package static let read: curl_read_callback = { buffer, size, count, userData in
        guard let buffer, let userData else { return Int(CURL_READFUNC_ABORT) }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(userData).takeUnretainedValue()
        if transfer.shouldAbort { return Int(CURL_READFUNC_ABORT) }
        let length = min(size * count, transfer.body.count - transfer.bodyOffset)
        guard length > 0 else { return 0 }
        transfer.body.withUnsafeBytes { bytes in
            UnsafeMutableRawPointer(buffer).copyMemory(
                from: bytes.baseAddress! + transfer.bodyOffset, byteCount: length)
        }
        transfer.bodyOffset += length
        return length
    }

    /// Back to a place in that body, for libcurl to send it again.
    static let seek: curl_seek_callback = { userData, offset, origin in
        guard let userData, origin == SEEK_SET else { return Int32(CURL_SEEKFUNC_CANTSEEK) }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(userData).takeUnretainedValue()
        guard offset >= 0, Int(offset) <= transfer.body.count else { return Int32(CURL_SEEKFUNC_FAIL) }
        transfer.bodyOffset = Int(offset)
        return Int32(CURL_SEEKFUNC_OK)
    }

    /// Notes each socket libcurl opens, for `CurlTransfer.peerClosed`.
    static let sockopt: curl_sockopt_callback = { userData, socket, _ in
        if let userData {
            Unmanaged<CurlTransfer>.fromOpaque(userData).takeUnretainedValue().sockets.append(socket)
        }
        return Int32(CURL_SOCKOPT_OK)
    }
}
