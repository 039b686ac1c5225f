import ChatTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The built `chat` binary against the real small model that `scripts/local-model start` runs
/// (llama.cpp's llama-server with Gemma 3 270M on 127.0.0.1:8080, the built-in `local` profile).
/// Skipped when that server does not answer, so the normal test run stays fast.
///
/// llama-server's requests cannot be seen from outside, so the REPL test puts a recording proxy
/// between chat and the server: a `LoopbackServer` whose answer is the real server's response to
/// the same request, forwarded byte for byte. It records every request chat sends, so the test
/// can check that the second one carries the first exchange, and the answers are the model's own.
@Suite(
    .enabled(
        if: LocalModel.isRunning,
        "no local model answers http://127.0.0.1:8080/health (run scripts/local-model start to include these tests)"),
    .serialized)
struct LocalModelTests {
    private func messages(_ request: RecordedRequest) throws -> [(role: String, content: String)] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
        let list = try #require(json["messages"] as? [[String: Any]])
        return list.map { ($0["role"] as? String ?? "", $0["content"] as? String ?? "") }
    }

    @Test func oneShotGetsAnAnswerFromTheLocalModel() async throws {
        let result = try await ChatBinary().run(
            ["--profile", "local", "--max-tokens", "24", "Name", "three", "colours."], timeout: 120)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(!result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "no answer on stdout")
        #expect(result.stdout.hasSuffix("\n"))
    }

    @Test func replSecondRequestCarriesTheFirstExchange() async throws {
        let proxy = try LoopbackServer { request, _ in
            LocalModel.forward(request).map { [.raw($0), .end] } ?? ServerStep.json(status: 502, #"{"error":"proxy"}"#)
        }
        defer { proxy.stop() }
        // Piped stdin drives the REPL: one message per line, then end of input ends it.
        let result = try await ChatBinary().run(
            ["-i", "--profile", "local", "--base-url", proxy.baseURL, "--max-tokens", "24"],
            input: "Name a colour.\nName another one.\n", timeout: 240)
        #expect(result.status == 0, "stderr: \(result.stderr)")

        let requests = proxy.requests
        try #require(requests.count == 2, "stderr: \(result.stderr)")
        #expect(try messages(requests[0]).map(\.role) == ["user"])
        #expect(try messages(requests[0]).map(\.content) == ["Name a colour."])
        let second = try messages(requests[1])
        #expect(second.map(\.role) == ["user", "assistant", "user"])
        #expect(second.first?.content == "Name a colour.")
        #expect(second.last?.content == "Name another one.")
        // The first answer, as the model gave it and chat showed it, goes back in the second request.
        let firstAnswer = second.count == 3 ? second[1].content.trimmingCharacters(in: .whitespacesAndNewlines) : ""
        #expect(!firstAnswer.isEmpty)
        #expect(result.stdout.contains(firstAnswer))
        // And the second answer arrived too (it may repeat the first: a small model does).
        let shown = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(shown.count > firstAnswer.count, "no second answer: \(result.stdout)")
    }
}

/// The local server of `scripts/local-model`, reached with plain sockets.
enum LocalModel {
    static let port: UInt16 = 8080

    /// Whether `GET /health` answers 200 within about a second.
    static let isRunning: Bool = {
        let request = "GET /health HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n"
        guard let response = exchange(Array(request.utf8), timeout: 1) else { return false }
        return String(decoding: response.prefix(16), as: UTF8.self).hasPrefix("HTTP/1.1 200")
    }()

    /// Sends `request` to the local server, with `Connection: close` so the whole response is what
    /// arrives before the server closes; returns the response's bytes as sent (head and body).
    static func forward(_ request: RecordedRequest) -> [UInt8]? {
        var head = "\(request.method) \(request.path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key })
        where !["host", "connection", "content-length", "transfer-encoding", "expect"].contains(name) {
            head += "\(name): \(value)\r\n"
        }
        head += "Content-Length: \(request.body.count)\r\nConnection: close\r\n\r\n"
        return exchange(Array(head.utf8) + request.body, timeout: 120)
    }

    /// Connects to 127.0.0.1:`port`, sends `bytes`, and reads until the server closes; nil if it
    /// cannot connect, or no byte arrives for `timeout` seconds.
    private static func exchange(_ bytes: [UInt8], timeout: Int) -> [UInt8]? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { return nil }
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return nil }
            sent += n
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n > 0 {
                response += buffer[..<n]
            } else if n == 0 {
                return response
            } else if errno != EINTR {
                return nil
            }
        }
    }
}
