import Foundation
import Glibc
import Synchronization

/// A scriptable HTTP/1.1 server on 127.0.0.1 for tests: one request per connection (or, with
/// `keepAlive`, as many as the client sends on it), each answered by playing the `ServerStep`s
/// that `respond` returns.
public final class LoopbackServer: Sendable {
    // Checked `Sendable`, no `@unchecked` needed: the stored properties are immutable, and all
    // mutable state lives in `Shared` behind a `Mutex`. Threads hold `Shared`, never `self`,
    // so dropping the last reference runs `deinit`, which stops the server.

    /// The port the server listens on.
    public let port: Int
    private let shared: Shared

    /// Starts listening on 127.0.0.1, an ephemeral port. `respond` is called once per request with
    /// the request and its 0-based index across the server's life, and returns the steps to play.
    /// With `keepAlive`, a head says nothing of `Connection: close` and `.end` leaves the
    /// connection open for the next request (steps after it still play: `.pause`, `.close`).
    public init(keepAlive: Bool = false, respond: @escaping @Sendable (RecordedRequest, Int) -> [ServerStep]) throws {
        // Close-on-exec: a chat process another test starts meanwhile must not hold it open.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        var one: Int32 = 1
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok =
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)) == 0
            && withUnsafeMutablePointer(to: &addr) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
                }
            } && listen(fd, 64) == 0
        guard ok else {
            let code = errno
            close(fd)
            throw POSIXError(.init(rawValue: code) ?? .EIO)
        }
        port = Int(UInt16(bigEndian: addr.sin_port))
        shared = Shared(listener: fd, keepAlive: keepAlive, respond: respond)
        let shared = self.shared
        Thread { LoopbackServer.acceptLoop(shared) }.start()
    }

    deinit { stop() }

    /// `http://127.0.0.1:<port>/v1`.
    public var baseURL: String { "http://127.0.0.1:\(port)/v1" }

    /// The requests received so far, in arrival order.
    public var requests: [RecordedRequest] { shared.withLock { $0.requests } }

    /// Connections accepted so far.
    public var acceptedConnections: Int { shared.withLock { $0.accepted } }

    /// Connections open now: accepted and not yet ended by either side.
    public var openConnections: Int { shared.withLock { $0.connections } }

    /// For each request in `requests`, the 0-based number of the connection it came on.
    public var requestConnections: [Int] { shared.withLock { $0.requestConnections } }

    /// Number of connections on which a write failed because the client had gone away
    /// (EPIPE/ECONNRESET). Noticing usually takes a write or two after the client left.
    public var clientDisconnects: Int { shared.withLock { $0.disconnects } }

    /// Waits (polling, up to `timeout` seconds) until `clientDisconnects >= n`; returns whether it happened.
    public func waitForDisconnects(_ n: Int, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while clientDisconnects < n {
            if Date() >= deadline { return false }
            usleep(5_000)
        }
        return true
    }

    /// Stops accepting, closes the listening socket and waits (up to 3 s) for connection threads to
    /// end; pauses and stalls are cut short. Idempotent.
    public func stop() {
        shared.withLock { $0.stopped = true }
        let deadline = Date().addingTimeInterval(3)
        while shared.withLock({ $0.accepting || $0.connections > 0 }) && Date() < deadline {
            usleep(2_000)
        }
    }

    private static func acceptLoop(_ shared: Shared) {
        while !shared.stopped {
            var entry = pollfd(fd: shared.listener, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 50) > 0 else { continue }
            let fd = accept(shared.listener, nil, nil)
            guard fd >= 0 else { continue }
            // Close-on-exec (Glibc does not import accept4; the window left is too short to matter here).
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            let number = shared.withLock { state -> Int? in
                guard !state.stopped else { return nil }
                state.connections += 1
                state.accepted += 1
                return state.accepted - 1
            }
            guard let number else {
                close(fd)
                break
            }
            Thread {
                var connection = Connection(fd: fd, number: number, shared: shared)
                connection.serve()
                close(fd)
                shared.withLock { $0.connections -= 1 }
            }.start()
        }
        close(shared.listener)
        shared.withLock { $0.accepting = false }
    }
}

extension LoopbackServer {
    /// The state shared by the server and its threads.
    private final class Shared: Sendable {
        struct State {
            var stopped = false
            var accepting = true
            var connections = 0
            var accepted = 0
            var disconnects = 0
            var requests: [RecordedRequest] = []
            var requestConnections: [Int] = []
        }

        let listener: Int32
        let keepAlive: Bool
        let respond: @Sendable (RecordedRequest, Int) -> [ServerStep]
        private let state = Mutex(State())

        init(listener: Int32, keepAlive: Bool, respond: @escaping @Sendable (RecordedRequest, Int) -> [ServerStep]) {
            self.listener = listener
            self.keepAlive = keepAlive
            self.respond = respond
        }

        func withLock<T: Sendable>(_ body: (inout State) -> T) -> T { state.withLock { body(&$0) } }

        var stopped: Bool { withLock { $0.stopped } }

        /// Sleeps in small slices; returns false if the server stopped meanwhile.
        func sleep(_ seconds: Double) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while !stopped {
                let left = deadline.timeIntervalSinceNow
                if left <= 0 { return true }
                usleep(UInt32(min(left, 0.01) * 1_000_000))
            }
            return false
        }
    }

    /// One accepted socket: reads the request, then plays the steps (and, kept alive, again).
    private struct Connection {
        let fd: Int32
        let number: Int
        let shared: Shared
        var input: [UInt8] = []
        var chunked = false

        mutating func serve() {
            repeat {
                guard let request = readRequest() else { return }
                let index = shared.withLock { state in
                    state.requests.append(request)
                    state.requestConnections.append(number)
                    return state.requests.count - 1
                }
                guard play(shared.respond(request, index)) else { return }
            } while true
        }

        // MARK: Reading

        /// Waits, in slices that notice `stop()`, until `fd` is ready for `events` or `deadline` passes.
        func wait(_ events: Int32, until deadline: Date = .distantFuture) -> Bool {
            while !shared.stopped && Date() < deadline {
                var entry = pollfd(fd: fd, events: Int16(events), revents: 0)
                if poll(&entry, 1, 50) > 0 { return true }
            }
            return false
        }

        /// Appends whatever arrives next to `input`; false on end of stream, error or stop.
        mutating func fill() -> Bool {
            var scratch = [UInt8](repeating: 0, count: 16_384)
            while wait(POLLIN) {
                let n = recv(fd, &scratch, scratch.count, Int32(MSG_DONTWAIT))
                if n > 0 {
                    input += scratch[..<n]
                    return true
                }
                if n == 0 || (errno != EAGAIN && errno != EINTR) { return false }
            }
            return false
        }

        /// Consumes input through the first `terminator`, returning what came before it.
        mutating func take(through terminator: [UInt8], limit: Int = 1 << 20) -> [UInt8]? {
            var from = 0
            while true {
                if let end = find(terminator, from: from) {
                    defer { input.removeFirst(end + terminator.count) }
                    return Array(input[..<end])
                }
                from = max(0, input.count - terminator.count)
                guard input.count < limit, fill() else { return nil }
            }
        }

        func find(_ needle: [UInt8], from: Int) -> Int? {
            guard input.count >= needle.count else { return nil }
            return (from...(input.count - needle.count)).first { input[$0..<$0 + needle.count].elementsEqual(needle) }
        }

        mutating func take(count: Int) -> [UInt8]? {
            while input.count < count { guard fill() else { return nil } }
            defer { input.removeFirst(count) }
            return Array(input[..<count])
        }

        mutating func readRequest() -> RecordedRequest? {
            guard let head = take(through: Array("\r\n\r\n".utf8)) else { return nil }
            let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
            let parts = lines[0].split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count >= 2 else { return nil }
            var headers: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            var body: [UInt8] = []
            if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
                while true {
                    guard let line = take(through: Array("\r\n".utf8)) else { return nil }
                    let size = String(decoding: line, as: UTF8.self).split(separator: ";").first ?? ""
                    guard let count = Int(size.trimmingCharacters(in: .whitespaces), radix: 16), count >= 0
                    else { return nil }
                    if count == 0 { break }
                    guard let chunk = take(count: count + 2) else { return nil }
                    body += chunk.dropLast(2)
                }
                while let trailer = take(through: Array("\r\n".utf8)), !trailer.isEmpty {}
            } else if let length = headers["content-length"] {
                guard let count = Int(length), count >= 0, let bytes = take(count: count) else { return nil }
                body = bytes
            }
            return RecordedRequest(method: String(parts[0]), path: String(parts[1]), headers: headers, body: body)
        }

        // MARK: Writing

        /// Sends all of `bytes`; false if the client is gone (counted once) or the server stopped.
        func send(_ bytes: [UInt8]) -> Bool {
            var sent = 0
            while sent < bytes.count {
                guard wait(POLLOUT) else { return false }
                let n = bytes[sent...].withUnsafeBytes {
                    Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                }
                if n >= 0 {
                    sent += n
                } else if errno == EPIPE || errno == ECONNRESET {
                    shared.withLock { $0.disconnects += 1 }
                    return false
                } else if errno != EAGAIN && errno != EINTR {
                    return false
                }
            }
            return true
        }

        /// Plays `steps`; true if the connection stays open for another request (kept alive).
        mutating func play(_ steps: [ServerStep]) -> Bool {
            var ended = false
            for step in steps {
                switch step {
                case .head(let status, let headers, let isChunked):
                    chunked = isChunked
                    var text = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
                    for (name, value) in headers { text += "\(name): \(value)\r\n" }
                    if isChunked { text += "Transfer-Encoding: chunked\r\n" }
                    if !shared.keepAlive { text += "Connection: close\r\n" }
                    guard send(Array((text + "\r\n").utf8)) else { return false }
                case .body(let bytes):
                    if chunked && bytes.isEmpty { continue }
                    let frame =
                        chunked ? Array(String(bytes.count, radix: 16).utf8) + [13, 10] + bytes + [13, 10] : bytes
                    guard send(frame) else { return false }
                case .raw(let bytes):
                    guard send(bytes) else { return false }
                case .pause(let seconds), .stall(let seconds):
                    guard shared.sleep(seconds) else { return false }
                case .end:
                    if chunked { guard send(Array("0\r\n\r\n".utf8)) else { return false } }
                    guard shared.keepAlive else {
                        closeCleanly()
                        return false
                    }
                    ended = true
                case .close:
                    shutdown(fd, Int32(SHUT_RDWR))
                    return false
                }
            }
            if ended { return true }
            if steps.isEmpty {
                shutdown(fd, Int32(SHUT_RDWR))
            } else {
                closeCleanly()
            }
            return false
        }

        /// Sends FIN, then drains input for up to a second so that closing does not reset the stream.
        func closeCleanly() {
            shutdown(fd, Int32(SHUT_WR))
            let deadline = Date().addingTimeInterval(1)
            var scratch = [UInt8](repeating: 0, count: 4096)
            while wait(POLLIN, until: deadline), recv(fd, &scratch, scratch.count, Int32(MSG_DONTWAIT)) > 0 {}
        }

        static func reason(_ status: Int) -> String {
            let known = [
                200: "OK", 201: "Created", 204: "No Content", 301: "Moved Permanently", 302: "Found",
                304: "Not Modified", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden",
                404: "Not Found", 405: "Method Not Allowed", 408: "Request Timeout", 409: "Conflict",
                413: "Payload Too Large", 415: "Unsupported Media Type", 422: "Unprocessable Entity",
                429: "Too Many Requests", 500: "Internal Server Error", 501: "Not Implemented",
                502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
            ]
            return known[status] ?? "Status \(status)"
        }
    }
}
