import ChatDomain
import ChatTestSupport
import Foundation
import Testing

@testable import ChatHTTP

/// `CurlHTTPClient` against the loopback server: what arrives, when, and how transfers end.
@Suite(.onOwnThread) struct CurlHTTPClientTests {
    @Test func bodyWrittenWithPausesArrivesInSeparatePiecesEachBeforeTheNextIsSent() async throws {
        let server = try LoopbackServer { _, _ in
            [
                .head(status: 200, headers: [("Content-Type", "text/plain")], chunked: true),
                .text("one"), .pause(0.5), .text("two"), .pause(0.5), .text("three"), .end,
            ]
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.drain(CurlHTTPClient().send(Self.request(server)))
        #expect(result.error == nil)
        #expect(result.pieceTexts == ["one", "two", "three"])
        try #require(result.pieces.count == 3)
        let times = result.pieces.map(\.seconds)
        // Each piece reached the consumer well before the server, pausing 0.5 s, sent the next one;
        // the bounds leave a quarter second for a busy test machine to schedule the consumer.
        #expect(times[1] - times[0] >= 0.25, "arrival times \(times)")
        #expect(times[2] - times[1] >= 0.25, "arrival times \(times)")
        #expect(times[2] - times[0] >= 0.75, "arrival times \(times)")
    }

    @Test func headWithStatusAndLowercasedHeadersComesOnceBeforeTheBody() async throws {
        let server = try LoopbackServer { _, _ in
            [
                .head(
                    status: 201, headers: [("X-Request-ID", "req-7"), ("Content-Type", "Text/Plain")], chunked: true),
                .text("hello"), .pause(0.05), .text(" world"), .end,
            ]
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.drain(CurlHTTPClient().send(Self.request(server)))
        #expect(result.error == nil)
        #expect(result.kinds.first == "head")
        #expect(result.kinds.filter { $0 == "head" }.count == 1)
        #expect(result.kinds.dropFirst().allSatisfy { $0 == "body" })
        let head = try #require(result.head)
        #expect(head.status == 201)
        #expect(head.headers["x-request-id"] == "req-7")
        #expect(head.headers["content-type"] == "Text/Plain")
        #expect(head.headers["transfer-encoding"] == "chunked")
        #expect(head.headers.keys.allSatisfy { $0 == $0.lowercased() }, "\(head.headers.keys)")
        #expect(head.mediaType == "text/plain")
        #expect(result.text == "hello world")
    }

    @Test func errorStatusYieldsItsHeadAndWholeBodyWithoutThrowing() async throws {
        let body = #"{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}"#
        let server = try LoopbackServer { _, _ in ServerStep.json(status: 401, body) }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.drain(CurlHTTPClient().send(Self.request(server)))
        #expect(result.error == nil)
        #expect(result.head?.status == 401)
        #expect(result.head?.header("Content-Type") == "application/json")
        #expect(result.text == body)
    }

    @Test func methodPathHeadersAndLargeBodyReachTheServerWithoutExpectContinue() async throws {
        let server = try LoopbackServer { _, _ in ServerStep.json(status: 200, "{}") }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let body = LoopbackTestHelpers.patternBytes(count: 2_000_000)
        var request = Self.request(server, path: "/chat/completions?trace=1")
        request.method = "POST"
        request.headers = [
            ("Authorization", "Bearer sk-test"), ("Content-Type", "application/json"), ("X-Custom", "custom value"),
        ]
        request.body = body
        let result = await Self.drain(CurlHTTPClient().send(request))
        #expect(result.error == nil)
        #expect(result.head?.status == 200)
        let recorded = try #require(server.requests.first)
        #expect(server.requests.count == 1)
        #expect(recorded.method == "POST")
        #expect(recorded.path == "/v1/chat/completions?trace=1")
        #expect(recorded.header("Authorization") == "Bearer sk-test")
        #expect(recorded.header("Content-Type") == "application/json")
        #expect(recorded.header("X-Custom") == "custom value")
        #expect(recorded.header("Expect") == nil)
        #expect(recorded.header("Content-Length") == "2000000")
        #expect(recorded.header("User-Agent")?.hasPrefix("chat/") == true)
        #expect(recorded.body.count == body.count)
        // Compared as Data: memcmp, where [UInt8] == walks element by element in a debug build.
        #expect(Data(recorded.body) == Data(body))
    }

    @Test func getAndCustomMethodsAreSentAsGiven() async throws {
        let server = try LoopbackServer { _, _ in ServerStep.json(status: 200, "{}") }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let client = CurlHTTPClient()
        _ = await Self.drain(client.send(Self.request(server, path: "/models")))
        var delete = Self.request(server, path: "/files/42")
        delete.method = "DELETE"
        _ = await Self.drain(client.send(delete))
        let requests = server.requests
        try #require(requests.count == 2)
        #expect(requests[0].method == "GET")
        #expect(requests[0].path == "/v1/models")
        #expect(requests[0].body.isEmpty)
        #expect(requests[0].header("Content-Length") == nil)
        #expect(requests[1].method == "DELETE")
        #expect(requests[1].path == "/v1/files/42")
    }

    @Test func serverClosingMidChunkedStreamThrowsPartialFileTransportError() async throws {
        let server = try LoopbackServer { _, _ in
            [.head(status: 200, headers: [], chunked: true), .text("partial"), .pause(0.1), .close]
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await Self.drain(CurlHTTPClient().send(Self.request(server)))
        #expect(result.head?.status == 200)
        #expect(result.text == "partial")
        guard case .transport(let code, let message) = result.error as? DataError else {
            Issue.record("expected DataError.transport, got \(String(describing: result.error))")
            return
        }
        #expect(code == 18)
        #expect(!message.isEmpty)
    }

    @Test func connectionRefusedThrowsCouldNotConnectTransportError() async throws {
        let start = ContinuousClock.now
        let result = try await RefusingPort.with { port in
            await Self.drain(
                CurlHTTPClient().send(Self.request(baseURL: "http://127.0.0.1:\(port)/v1", path: "/models")))
        }
        // Refused at once, not after the 5 s connect timeout.
        #expect(start.secondsElapsed < 3)
        #expect(result.kinds.isEmpty)
        guard case .transport(let code, let message) = result.error as? DataError else {
            Issue.record("expected DataError.transport, got \(String(describing: result.error))")
            return
        }
        #expect(code == 7)
        #expect(!message.isEmpty)
    }

    @Test func stallAfterFirstPieceThrowsIdleTimeoutSoonAfterTheLimit() async throws {
        let server = try LoopbackServer { _, _ in
            [
                .head(status: 200, headers: [("Content-Type", "text/event-stream")], chunked: true), .text("first"),
                .stall(5),
            ]
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        var request = Self.request(server)
        request.idleTimeout = 1
        let result = await Self.drain(CurlHTTPClient().send(request))
        #expect(result.text == "first")
        #expect(result.error as? DataError == .idleTimeout(seconds: 1))
        let firstPiece = try #require(result.pieces.first?.seconds)
        let waited = result.endSeconds - firstPiece
        // Not before the limit (the idle clock restarted no earlier than the start), and well
        // before the server's 5 s stall is over.
        #expect(result.endSeconds >= 0.95, "gave up \(result.endSeconds) s after the start")
        #expect(waited < 3, "gave up \(waited) s after the first piece")
    }

    @Test func serverThatNeverAnswersThrowsIdleTimeoutNotConnectTimeout() async throws {
        let server = try LoopbackServer { _, _ in [.stall(5)] }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        var request = Self.request(server)
        request.idleTimeout = 1
        let result = await Self.drain(CurlHTTPClient().send(request))
        #expect(result.kinds.isEmpty)
        #expect(result.error as? DataError == .idleTimeout(seconds: 1))
        #expect(result.endSeconds >= 0.95, "gave up after \(result.endSeconds) s")
        #expect(result.endSeconds < 3, "gave up after \(result.endSeconds) s")
    }

    @Test func aConsumerThatFallsBehindHoldsTheTransferBackWithoutLosingAByteOrTimingOut() async throws {
        let block = (0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }
        let blocks = 256  // 16 MiB: more than the socket buffers and the client's own can hold
        let server = try LoopbackServer { _, _ in
            [.head(status: 200, headers: [("Content-Type", "application/octet-stream")], chunked: true)]
                + Array(repeating: ServerStep.body(block), count: blocks) + [.end]
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        var request = Self.request(server)
        request.idleTimeout = 0.5
        let client = CurlHTTPClient()
        var parts = client.send(request).makeAsyncIterator()
        guard case .head? = try await parts.next() else {
            Issue.record("the head must come first")
            return
        }
        // The consumer falls behind for three idle timeouts.
        try await Task.sleep(for: .seconds(1.5))
        // The transfer waited for it instead of reading the rest into memory, and the wait did
        // not count as an idle server.
        #expect(client.activeTransfers == 1)
        var received = 0
        var intact = true
        while let part = try await parts.next() {
            guard case .body(let bytes) = part else { continue }
            var offset = 0
            while offset < bytes.count {
                let start = (received + offset) % block.count
                let count = min(block.count - start, bytes.count - offset)
                let same = bytes.withUnsafeBytes { got in
                    block.withUnsafeBytes { want in memcmp(got.baseAddress! + offset, want.baseAddress! + start, count)
                    }
                }
                if same != 0 { intact = false }
                offset += count
            }
            received += bytes.count
        }
        #expect(received == blocks * block.count)
        #expect(intact)
    }

    @Test func cancellingTheConsumerMidStreamEndsTheLoopAndTheTransfer() async throws {
        let server = try LoopbackServer { _, _ in Self.slowStream() }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let client = CurlHTTPClient()
        let (firstPiece, signal) = AsyncStream<Void>.makeStream()
        let stream = client.send(Self.request(server))
        let consumer = Task(executorPreference: OwnThreadExecutor.shared) { () -> (pieces: Int, error: (any Error)?) in
            var pieces = 0
            do {
                for try await part in stream {
                    guard case .body = part else { continue }
                    pieces += 1
                    signal.yield()
                }
            } catch {
                return (pieces, error)
            }
            return (pieces, nil)
        }
        for await _ in firstPiece { break }
        #expect(client.activeTransfers == 1)
        let cancelled = ContinuousClock.now
        consumer.cancel()
        let outcome = await consumer.value
        let loopEnded = cancelled.secondsElapsed
        #expect(loopEnded < 1, "the loop ended \(loopEnded) s after cancel")
        // Far fewer than the 100 pieces the server would send over 10 s.
        #expect(outcome.pieces < 50)
        #expect(outcome.error == nil || outcome.error is CancellationError, "\(String(describing: outcome.error))")
        #expect(await LoopbackTestHelpers.eventually(timeout: 2) { client.activeTransfers == 0 })
        #expect(await LoopbackTestHelpers.eventually(timeout: 3) { server.clientDisconnects >= 1 })
    }

    @Test func cancellingWhileTheServerIsSilentEndsTheTransferAtTheNextProgressCallback() async throws {
        let server = try LoopbackServer { _, _ in [.stall(10)] }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let client = CurlHTTPClient()
        var request = Self.request(server)
        request.idleTimeout = 30
        let stream = client.send(request)
        let consumer = Task(executorPreference: OwnThreadExecutor.shared) { () -> (any Error)? in
            do {
                for try await _ in stream {}
            } catch {
                return error
            }
            return nil
        }
        #expect(await LoopbackTestHelpers.eventually(timeout: 3) { server.requests.count == 1 })
        let cancelled = ContinuousClock.now
        consumer.cancel()
        let error = await consumer.value
        let loopEnded = cancelled.secondsElapsed
        #expect(loopEnded < 1, "the loop ended \(loopEnded) s after cancel")
        #expect(error == nil || error is CancellationError, "\(String(describing: error))")
        // With no bytes to write, libcurl notices at its next progress callback: at most about a
        // second later (measured 0.1-0.2 s with libcurl 7.88).
        #expect(await LoopbackTestHelpers.eventually(timeout: 2.5) { client.activeTransfers == 0 })
    }

    @Test func shutdownAbortsARunningTransferAndWaitsForItsThread() async throws {
        let server = try LoopbackServer { _, _ in Self.slowStream() }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let client = CurlHTTPClient()
        let (firstPiece, signal) = AsyncStream<Void>.makeStream()
        let stream = client.send(Self.request(server))
        let consumer = Task(executorPreference: OwnThreadExecutor.shared) { () -> (any Error)? in
            do {
                for try await part in stream {
                    if case .body = part { signal.yield() }
                }
            } catch {
                return error
            }
            return nil
        }
        for await _ in firstPiece { break }
        #expect(client.activeTransfers == 1)
        let took = await LoopbackTestHelpers.onThread {
            let start = ContinuousClock.now
            client.shutdown(timeout: 2)
            return start.secondsElapsed
        }
        #expect(client.activeTransfers == 0, "shutdown returned after \(took) s")
        #expect(took < 1.5, "shutdown took \(took) s")
        let error = await consumer.value
        #expect(error is CancellationError, "\(String(describing: error))")
        #expect(await LoopbackTestHelpers.eventually(timeout: 3) { server.clientDisconnects >= 1 })
    }
}

// MARK: Helpers

extension CurlHTTPClientTests {
    /// What a drained stream gave, with arrival times in seconds from the start of `drain`.
    struct Drained {
        var kinds: [String] = []
        var head: HTTPResponseHead?
        var pieces: [(seconds: Double, bytes: [UInt8])] = []
        var error: (any Error)?
        var endSeconds = 0.0

        var text: String { String(decoding: pieces.flatMap(\.bytes), as: UTF8.self) }
        var pieceTexts: [String] { pieces.map { String(decoding: $0.bytes, as: UTF8.self) } }
    }

    static func drain(_ stream: HTTPResponseStream) async -> Drained {
        let start = ContinuousClock.now
        var result = Drained()
        do {
            for try await part in stream {
                switch part {
                case .head(let head):
                    result.kinds.append("head")
                    result.head = head
                case .body(let bytes):
                    result.kinds.append("body")
                    result.pieces.append((start.secondsElapsed, bytes))
                }
            }
        } catch {
            result.error = error
        }
        result.endSeconds = start.secondsElapsed
        return result
    }

    static func request(_ server: LoopbackServer, path: String = "/stream") -> HTTPRequest {
        request(baseURL: server.baseURL, path: path)
    }

    /// A GET with generous limits; `proxy: ""` keeps any proxy in the environment out of the way.
    static func request(baseURL: String, path: String) -> HTTPRequest {
        HTTPRequest(
            method: "GET", url: baseURL + path, headers: [], body: nil, connectTimeout: 5, idleTimeout: 10,
            proxy: "")
    }

    /// A chunked body piece every 100 ms for 10 s.
    static func slowStream() -> [ServerStep] {
        var steps: [ServerStep] = [.head(status: 200, headers: [("Content-Type", "text/plain")], chunked: true)]
        for index in 0..<100 {
            steps += [.text("piece \(index)\n"), .pause(0.1)]
        }
        return steps + [.end]
    }
}
