import ChatTestSupport
import Foundation
import Glibc
import Testing

/// Tests of the loopback server itself, driven by `/usr/bin/curl` and by a raw socket client.
@Suite struct LoopbackServerTests {
    @Test func sseArrivesInPiecesWithPauses() throws {
        let server = try LoopbackServer { _, _ in ServerStep.sse(["one", "two", "three"], pause: 0.3) }
        defer { server.stop() }
        let result = try curl(["-N", server.baseURL + "/chat/completions"])
        #expect(result.exitCode == 0)
        #expect(result.text == "data: one\n\ndata: two\n\ndata: three\n\ndata: [DONE]\n\n")
        let times = ["data: one", "data: two", "data: three", "[DONE]"].map {
            result.arrival(of: $0) ?? -1
        }
        for (earlier, later) in zip(times, times.dropFirst()) {
            #expect(later - earlier > 0.2, "pieces arrived at \(times)")
        }
    }

    @Test func chunkedWireFormatIsExact() throws {
        let server = try LoopbackServer { _, _ in
            [.head(status: 429, headers: [("X-A", "1")], chunked: true), .text("hi"), .body([]), .end]
        }
        defer { server.stop() }
        let reply = try rawExchange(port: server.port, "GET /x HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(
            String(decoding: reply, as: UTF8.self)
                == "HTTP/1.1 429 Too Many Requests\r\nX-A: 1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                + "2\r\nhi\r\n0\r\n\r\n")
    }

    @Test func jsonGivesStatusAndBody() throws {
        let body = #"{"error":{"message":"bad key"}}"#
        let server = try LoopbackServer { _, _ in ServerStep.json(status: 401, body) }
        defer { server.stop() }
        let result = try curl(["-w", "\n%{http_code}", server.baseURL + "/models"])
        #expect(result.exitCode == 0)
        #expect(result.text == body + "\n401")
        let reply = try rawExchange(port: server.port, "GET / HTTP/1.1\r\n\r\n")
        #expect(String(decoding: reply, as: UTF8.self).hasPrefix("HTTP/1.1 401 Unauthorized\r\n"))
        #expect(
            String(decoding: reply, as: UTF8.self).contains("Content-Length: \(body.utf8.count)\r\n"))
    }

    @Test func closeMidBodyIsAPartialFile() throws {
        let server = try LoopbackServer { _, index in
            index == 0
                ? [.head(status: 200, headers: [], chunked: true), .text("partial"), .pause(0.1), .close]
                : [
                    .head(status: 200, headers: [("Content-Length", "100")], chunked: false), .text("short"),
                    .close,
                ]
        }
        defer { server.stop() }
        #expect(try curl(["-N", server.baseURL]).exitCode == 18)
        #expect(try curl(["-N", server.baseURL]).exitCode == 18)
    }

    @Test func emptyScriptDropsTheConnection() throws {
        let server = try LoopbackServer { _, _ in [] }
        defer { server.stop() }
        #expect(try curl([server.baseURL]).exitCode == 52)
    }

    @Test func recordsPostRequests() throws {
        let server = try LoopbackServer { _, index in
            ServerStep.json(status: 200, "{\"index\":\(index)}")
        }
        defer { server.stop() }
        let body = #"{"model":"m","messages":[{"role":"user","content":"héllo"}]}"#
        let first = try curl([
            "-X", "POST", "-H", "Authorization: Bearer sk-test", "-H", "Content-Type: application/json",
            "--data-binary", body, server.baseURL + "/chat/completions?stream=true",
        ])
        let second = try curl([
            "-H", "Transfer-Encoding: chunked", "--data-binary", "chunked body", server.baseURL,
        ])
        #expect(first.text == #"{"index":0}"#)
        #expect(second.text == #"{"index":1}"#)
        let requests = server.requests
        try #require(requests.count == 2)
        #expect(requests[0].method == "POST")
        #expect(requests[0].path == "/v1/chat/completions?stream=true")
        #expect(requests[0].header("AUTHORIZATION") == "Bearer sk-test")
        #expect(requests[0].headers["content-type"] == "application/json")
        #expect(requests[0].bodyText == body)
        #expect(requests[1].bodyText == "chunked body")
    }

    @Test func clientLeavingMidStreamIsCounted() throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.sse((0..<100).map { ServerStep.chatChunk("token \($0)") }, pause: 0.02)
        }
        defer { server.stop() }
        #expect(server.clientDisconnects == 0)
        let fd = try connectTo(port: server.port)
        _ = "GET / HTTP/1.1\r\n\r\n".withCString { send(fd, $0, strlen($0), 0) }
        var buffer = [UInt8](repeating: 0, count: 100)
        #expect(recv(fd, &buffer, buffer.count, 0) > 0)
        close(fd)
        #expect(server.waitForDisconnects(1, timeout: 5))
    }

    @Test func stopIsPromptDuringAStall() throws {
        let server = try LoopbackServer { _, _ in [.stall(30)] }
        let process = try startCurl([server.baseURL])
        let deadline = Date().addingTimeInterval(5)
        while server.requests.isEmpty && Date() < deadline { usleep(5_000) }
        #expect(server.requests.count == 1)
        let start = Date()
        server.stop()
        server.stop()
        #expect(Date().timeIntervalSince(start) < 1)
        process.waitUntilExit()
        #expect(process.terminationStatus == 52)
    }

    @Test func chunkHelpersAreValidJSON() throws {
        let content = "a \"quoted\"\nline / ü 🎉"
        let chunk = try parse(ServerStep.chatChunk(content))
        let choice = try #require((chunk["choices"] as? [[String: Any]])?.first)
        #expect(chunk["object"] as? String == "chat.completion.chunk")
        #expect((choice["delta"] as? [String: Any])?["content"] as? String == content)
        #expect(choice["finish_reason"] is NSNull)
        let finish = try #require(
            (try parse(ServerStep.finishChunk("length"))["choices"] as? [[String: Any]])?.first)
        #expect(finish["finish_reason"] as? String == "length")
        #expect((finish["delta"] as? [String: Any])?.isEmpty == true)
        let usage = try parse(ServerStep.usageChunk(prompt: 3, completion: 4))
        #expect((usage["choices"] as? [Any])?.isEmpty == true)
        #expect((usage["usage"] as? [String: Any])?["total_tokens"] as? Int == 7)
    }
}

// MARK: Helpers

extension LoopbackServerTests {
    private struct CurlResult {
        var exitCode: Int32
        var pieces: [(time: Double, bytes: [UInt8])]
        var text: String { String(decoding: pieces.flatMap(\.bytes), as: UTF8.self) }

        /// Seconds from the first piece to the piece in which `marker` was complete.
        func arrival(of marker: String) -> Double? {
            var seen: [UInt8] = []
            for piece in pieces {
                seen += piece.bytes
                if String(decoding: seen, as: UTF8.self).contains(marker) {
                    return piece.time - pieces[0].time
                }
            }
            return nil
        }
    }

    private func startCurl(_ arguments: [String], output: Pipe? = nil) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "--max-time", "20"] + arguments
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs curl, timestamping each piece of its output as it arrives.
    private func curl(_ arguments: [String]) throws -> CurlResult {
        let pipe = Pipe()
        let process = try startCurl(arguments, output: pipe)
        var pieces: [(time: Double, bytes: [UInt8])] = []
        while case let data = pipe.fileHandleForReading.availableData, !data.isEmpty {
            pieces.append((Date().timeIntervalSinceReferenceDate, Array(data)))
        }
        process.waitUntilExit()
        return CurlResult(exitCode: process.terminationStatus, pieces: pieces)
    }

    private func connectTo(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = UInt16(port).bigEndian
        addr.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        let result = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
        return fd
    }

    /// Sends `request` on a fresh connection and returns everything received until the server closes.
    private func rawExchange(port: Int, _ request: String) throws -> [UInt8] {
        let fd = try connectTo(port: port)
        defer { close(fd) }
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while case let n = recv(fd, &buffer, buffer.count, 0), n > 0 { reply += buffer[..<n] }
        return reply
    }

    private func parse(_ json: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }
}
