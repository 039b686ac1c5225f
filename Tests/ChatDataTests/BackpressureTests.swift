import ChatDomain
import ChatTestSupport
import Foundation
import Testing

@testable import ChatHTTP

/// A consumer slower than the server: the transfer waits for it (on a condition, not a poll),
/// loses nothing, holds at most the channel's limit in bytes, and still ends when it is
/// cancelled, shut down, or cut by the server.
@Suite("Backpressure", .onOwnThread, .timeLimit(.minutes(1))) struct BackpressureTests {
    /// The most bytes libcurl hands its write callback at once (CURL_MAX_WRITE_SIZE).
    static let largestWrite = 16 * 1024
    static let limit = 4 * 1024

    @Test func bytesThatArriveWhileTheConsumerIsAwayAreTakenInOnePart() async throws {
        let channel = ResponseChannel(limit: 1 << 20)
        channel.send(head: HTTPResponseHead(status: 200, headers: [:]))
        let events = (0..<100).map { Array("data: event \($0)\n\n".utf8) }
        for event in events {
            #expect(event.withUnsafeBytes { channel.send(body: $0) })
        }
        channel.finish()
        var parts: [HTTPStreamPart] = []
        while case .part(let part) = await channel.next() { parts.append(part) }
        try #require(parts.count == 2)
        guard case .head = parts[0], case .body(let bytes) = parts[1] else {
            Issue.record("expected the head, then one body part: \(parts)")
            return
        }
        #expect(bytes == events.flatMap { $0 })
        #expect(channel.counters.takes == 1)
        #expect(channel.counters.writes == 100)
    }

    @Test func aSlowConsumerGetsEveryByteWhileTheBufferStaysWithinItsLimit() async throws {
        // 3,000 events, each its own HTTP chunk, as a fast server sends them.
        let events = (0..<3_000).map {
            Array("data: {\"n\":\($0),\"pad\":\"\(String(repeating: "x", count: 60))\"}\n\n".utf8)
        }
        let server = try LoopbackServer { _, _ in
            [.head(status: 200, headers: [("Content-Type", "text/event-stream")], chunked: true)]
                + events.map { ServerStep.body($0) } + [.end]
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let client = CurlHTTPClient()
        let stream = client.send(CurlHTTPClientTests.request(server), bufferLimit: Self.limit)
        var received: [UInt8] = []
        var bodyParts = 0
        for try await part in stream {
            guard case .body(let bytes) = part else { continue }
            received += bytes
            bodyParts += 1
            // Behind the server: it writes faster than this reads.
            if bodyParts % 4 == 0 { try await Task.sleep(for: .milliseconds(5)) }
        }
        #expect(received == events.flatMap { $0 })
        let counters = stream.channel.counters
        #expect(counters.producerWaits > 0, "the transfer never waited: \(counters)")
        #expect(counters.peakBuffered <= Self.limit + Self.largestWrite, "\(counters)")
        // The consumer took many writes at a time, not one part per write.
        #expect(counters.takes < counters.writes, "\(counters)")
        #expect(await LoopbackTestHelpers.eventually(timeout: 2) { client.activeTransfers == 0 })
    }

    @Test func cancellingAConsumerWhileTheTransferWaitsForRoomEndsTheTransfer() async throws {
        let server = try LoopbackServer { _, _ in Self.bigBody(blocks: 64) }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let client = CurlHTTPClient()
        let stream = client.send(CurlHTTPClientTests.request(server), bufferLimit: Self.limit)
        let (firstPart, signal) = AsyncStream<Void>.makeStream()
        let consumer = Task(executorPreference: OwnThreadExecutor.shared) { () -> (any Error)? in
            do {
                for try await part in stream {
                    guard case .body = part else { continue }
                    signal.yield()
                    // A consumer stuck on something else (a slow terminal), until cancelled.
                    try await Task.sleep(for: .seconds(30))
                }
            } catch {
                return error
            }
            return nil
        }
        for await _ in firstPart { break }
        #expect(await LoopbackTestHelpers.eventually(timeout: 3) { stream.channel.counters.producerWaits > 0 })
        #expect(client.activeTransfers == 1)
        let cancelled = ContinuousClock.now
        consumer.cancel()
        let error = await consumer.value
        #expect(cancelled.secondsElapsed < 1)
        #expect(error == nil || error is CancellationError, "\(String(describing: error))")
        #expect(await LoopbackTestHelpers.eventually(timeout: 2) { client.activeTransfers == 0 })
        #expect(await LoopbackTestHelpers.eventually(timeout: 3) { server.clientDisconnects >= 1 })
        #expect(stream.channel.counters.peakBuffered <= Self.limit + Self.largestWrite)
    }

    @Test func shutdownEndsATransferThatWaitsForRoom() async throws {
        let server = try LoopbackServer { _, _ in Self.bigBody(blocks: 64) }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let client = CurlHTTPClient()
        let stream = client.send(CurlHTTPClientTests.request(server), bufferLimit: Self.limit)
        var parts = stream.makeAsyncIterator()
        _ = try await parts.next()
        #expect(await LoopbackTestHelpers.eventually(timeout: 3) { stream.channel.counters.producerWaits > 0 })
        let took = await LoopbackTestHelpers.onThread {
            let start = ContinuousClock.now
            client.shutdown(timeout: 2)
            return start.secondsElapsed
        }
        #expect(client.activeTransfers == 0)
        #expect(took < 1, "shutdown took \(took) s")
        // What was buffered is still handed over, then the transfer's end.
        var error: (any Error)?
        do {
            while try await parts.next() != nil {}
        } catch let caught {
            error = caught
        }
        #expect(error is CancellationError, "\(String(describing: error))")
    }

    @Test func aStreamCutWhileTheConsumerIsBehindDeliversEveryByteThenTheError() async throws {
        let block = LoopbackTestHelpers.patternBytes(count: 8 * 1024)
        let server = try LoopbackServer { _, _ in
            [.head(status: 200, headers: [("Content-Type", "text/event-stream")], chunked: true)]
                + Array(repeating: ServerStep.body(block), count: 32) + [.pause(0.1), .close]
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let stream = CurlHTTPClient().send(CurlHTTPClientTests.request(server), bufferLimit: Self.limit)
        var received: [UInt8] = []
        var error: (any Error)?
        do {
            for try await part in stream {
                guard case .body(let bytes) = part else { continue }
                received += bytes
                try await Task.sleep(for: .milliseconds(5))
            }
        } catch let caught {
            error = caught
        }
        #expect(received == Array(repeating: block, count: 32).flatMap { $0 })
        guard case .transport(let code, _) = error as? DataError else {
            Issue.record("expected DataError.transport, got \(String(describing: error))")
            return
        }
        #expect(code == 18)
        #expect(stream.channel.counters.producerWaits > 0)
    }

    /// A chunked body of `blocks` blocks of 64 KiB, more than the socket buffers hold.
    static func bigBody(blocks: Int) -> [ServerStep] {
        let block = LoopbackTestHelpers.patternBytes(count: 64 * 1024)
        return [.head(status: 200, headers: [("Content-Type", "application/octet-stream")], chunked: true)]
            + Array(repeating: ServerStep.body(block), count: blocks) + [.end]
    }
}
