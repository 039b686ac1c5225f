import ChatDomain
import ChatSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one-shot listener the browser comes back to: 127.0.0.1 on an ephemeral port, answering one
/// request (the callback) and closed after it, or after the time given, or when the waiting task
/// is cancelled (Ctrl-C). Hand-written on the system's sockets: the few calls it needs cost no
/// dependency (docs/PERFORMANCE.md, round 27, weighs SwiftNIO's).
package final class LoopbackListener: Sendable {
    /// The port the system chose.
    package let port: Int
    private let socket: Int32
    private let closed = Atomic<Bool>(false)

    /// The redirect URI that reaches it.
    package var redirectURI: String { "http://127.0.0.1:\(port)/callback" }

    /// A listener on 127.0.0.1 and a port of the system's choosing.
    package init() throws(SignInFailure) {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .noListener(reason: String(cString: strerror(errno))) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(fd, address, length) == 0 && listen(fd, 4) == 0 && getsockname(fd, address, &length) == 0
            }
        }
        guard bound else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw .noListener(reason: reason)
        }
        socket = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close()
    }

    /// Closes it (once).
    package func close() {
        if !closed.exchange(true, ordering: .acquiringAndReleasing) { Glibc.close(socket) }
    }

    /// The request that came: its method and target (`/callback?code=…`).
    package struct Request: Sendable, Equatable {
        package var method: String
        package var target: String

        /// The target's path, without the query.
        package var path: Substring { target.prefix { $0 != "?" } }
        /// The query's pairs.
        package var query: [(name: String, value: String)] {
            guard let mark = target.firstIndex(of: "?") else { return [] }
            return FormEncoding.decode(target[target.index(after: mark)...])
        }
    }

    /// Waits for one request, at most `seconds`, answers it with the page `respond` makes of it
    /// (its status and text), and closes. Nil when the time ran out or the task was cancelled
    /// (told apart by `Task.isCancelled`).
    package func next(within seconds: Double, respond: @escaping @Sendable (Request) -> (Int, String)) async
        -> Request?
    {
        let stop = StopFlag()
        let socket = socket
        let deadline = MonotonicClock.nanoseconds() &+ UInt64(seconds * 1e9)
        let request = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Request?, Never>) in
                let started = DetachedThread.start {
                    continuation.resume(returning: Self.serve(socket, until: deadline, stop: stop, respond: respond))
                }
                if !started { continuation.resume(returning: nil) }
            }
        } onCancel: {
            stop.raise()
        }
        close()
        return request
    }

    /// Accepts one connection (polling every 100 ms for `stop` and the deadline), reads its
    /// request head (at most 16 KB, 10 s), answers it and closes it.
    private static func serve(
        _ socket: Int32, until deadline: UInt64, stop: StopFlag,
        respond: (Request) -> (Int, String)
    ) -> Request? {
        var connection: Int32 = -1
        while connection < 0 {
            if stop.isRaised || MonotonicClock.nanoseconds() >= deadline { return nil }
            var waiting = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 100) > 0 else { continue }
            // (accept4 is not imported; a child spawned meanwhile closes it anyway: ProcessSpawn.)
            connection = accept(socket, nil, nil)
            if connection >= 0 { _ = fcntl(connection, F_SETFD, FD_CLOEXEC) }
        }
        defer { Glibc.close(connection) }
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let readDeadline = MonotonicClock.nanoseconds() &+ 10_000_000_000
        while head.count < 16_384, !head.ends(with: [13, 10, 13, 10]), !head.ends(with: [10, 10]) {
            if stop.isRaised || MonotonicClock.nanoseconds() >= readDeadline { return nil }
            var waiting = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 100) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(connection, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            head += buffer[0..<count]
        }
        let line = head.split(separator: 10, maxSplits: 1).first.map { String(decoding: $0, as: UTF8.self) } ?? ""
        let words = line.split(separator: " ")
        let request = Request(
            method: words.first.map(String.init) ?? "", target: words.count > 1 ? String(words[1]) : "")
        let (status, text) = respond(request)
        let body = Array(text.utf8)
        let reply =
            "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Bad Request")\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: \(body.count)\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n"
        let bytes = Array(reply.utf8) + body
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { break }
            offset += written
        }
        return request
    }
}

/// Set when the waiting task is cancelled; read by the listener's thread.
private final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)

    var isRaised: Bool { value.load(ordering: .acquiring) }

    func raise() { value.store(true, ordering: .releasing) }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
