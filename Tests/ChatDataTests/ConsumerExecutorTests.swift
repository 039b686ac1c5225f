import ChatDomain
import ChatTestSupport
import Foundation
import Synchronization
import Testing

@testable import ChatHTTP

/// A reader that prefers `ConsumerExecutor.shared` reads a piece that comes after a pause on
/// the transfer's thread, right where it arrived; a burst elsewhere. The repository's answer
/// takes that preference itself (the caller names no executor) and is off that thread again
/// when `read` returns, so `shutdown` (which waits for the transfer's thread) cannot be reached
/// from inside libcurl's callback.
@Suite("ConsumerExecutor", .onOwnThread, .timeLimit(.minutes(1))) struct ConsumerExecutorTests {
    static let pieces = (0..<3).map { Array("piece \($0)\n".utf8) }
    /// What is not read on the transfer's thread runs where the suite runs (the cooperative
    /// threads may be blocked by other tests).
    static let executor = ConsumerExecutor(fallback: OwnThreadExecutor.shared)

    /// The head, then each piece after a pause longer than `ResponseChannel.quietNanoseconds`:
    /// long enough, too, for the reader to be waiting on a loaded machine (at 0.05 s, with two
    /// builds beside the tests on two cores, the first piece was sometimes there before it).
    static func slowServer() throws -> LoopbackServer {
        try LoopbackServer { _, _ in
            [.head(status: 200, headers: [("Content-Type", "text/plain")], chunked: true)]
                + pieces.flatMap { [ServerStep.pause(0.25), .body($0)] } + [.end]
        }
    }

    /// The body's bytes, and for each part whether it was read on the thread it arrived on.
    static func read(_ stream: HTTPResponseStream) async throws -> (bytes: [UInt8], readHere: [Bool]) {
        var received: [UInt8] = []
        var readHere: [Bool] = []
        for try await part in stream {
            guard case .body(let bytes) = part else { continue }
            received += bytes
            readHere.append(ConsumerExecutor.runsHere)
        }
        return (received, readHere)
    }

    @Test func aPieceAfterAPauseIsReadOnTheThreadItArrivedOn() async throws {
        let server = try Self.slowServer()
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let client = CurlHTTPClient()
        let stream = client.send(CurlHTTPClientTests.request(server))
        let (received, readHere) = try await withTaskExecutorPreference(Self.executor) { try await Self.read(stream) }
        #expect(received == Self.pieces.flatMap { $0 })
        #expect(readHere == Array(repeating: true, count: Self.pieces.count), "\(stream.channel.counters)")
        #expect(stream.channel.counters.quietWakes == Self.pieces.count)
        #expect(await LoopbackTestHelpers.eventually(timeout: 2) { client.activeTransfers == 0 })
    }

    @Test func aReaderWithoutThePreferenceIsWokenElsewhere() async throws {
        let server = try Self.slowServer()
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let client = CurlHTTPClient()
        let (received, readHere) = try await Self.read(client.send(CurlHTTPClientTests.request(server)))
        #expect(received == Self.pieces.flatMap { $0 })
        #expect(!readHere.isEmpty && !readHere.contains(true), "\(readHere)")
    }

    @Test func aBurstIsReadElsewhereInBatches() async throws {
        let events = (0..<3_000).map { Array("data: {\"n\":\($0)}\n\n".utf8) }
        let server = try LoopbackServer { _, _ in
            [.head(status: 200, headers: [("Content-Type", "text/event-stream")], chunked: true)]
                + events.map { ServerStep.body($0) } + [.end]
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let client = CurlHTTPClient()
        let stream = client.send(CurlHTTPClientTests.request(server))
        var received: [UInt8] = []
        try await withTaskExecutorPreference(Self.executor) {
            for try await part in stream {
                if case .body(let bytes) = part { received += bytes }
            }
        }
        #expect(received == events.flatMap { $0 })
        let counters = stream.channel.counters
        // Only a wake after a pause (the first write, after the head; a moment the server's
        // thread was not running, on a busy machine) runs the reader there.
        #expect(counters.quietWakes < counters.writes / 10, "\(counters)")
        #expect(counters.takes < counters.writes, "\(counters)")
    }

    /// An answer whose one piece comes after a pause, `[DONE]` with it, on a connection the
    /// server keeps open: the answer is read and handed on on the transfer's thread, and ends
    /// there.
    static func answerEndingOnTheTransfersThread() throws -> LoopbackServer {
        let chunk = #"data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}"# + "\n\ndata: [DONE]\n\n"
        return try LoopbackServer { _, _ in
            [
                .head(status: 200, headers: [("Content-Type", "text/event-stream")], chunked: true),
                .pause(0.05), .body(Array(chunk.utf8)), .pause(5), .end,
            ]
        }
    }

    /// What follows the answer (storing it, returning from `send`, `shutdown`, which waits for
    /// the transfer's thread) must run off that thread, or it would run inside libcurl's callback
    /// and `shutdown` would wait for itself.
    @Test func anAnswerThatEndsOnTheTransfersThreadLeavesItBeforeShutdown() async throws {
        let server = try Self.answerEndingOnTheTransfersThread()
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let client = CurlHTTPClient()
        let repository = ServerGPTRepositoryTests.repository(server, client: client, readingExecutor: Self.executor)
        let recorder = ThreadNotingRecorder()
        // A task with no executor preference of its own, as chat's are: the answer takes its own.
        // `shutdown` runs in it too, where chat calls it (not on the suite's thread).
        let (turn, afterSend, shutdownSeconds) = await Task.detached {
            var conversation = Conversation(settings: ChatSettings(model: "test-model"))
            let turn = await GPTChatUseCase(repository: repository, recorder: recorder).send(
                "Hello", in: &conversation
            ) { _ in }
            let afterSend = ConsumerExecutor.runsHere
            let started = Date()
            client.shutdown(timeout: 4)
            return (turn, afterSend, Date().timeIntervalSince(started))
        }.value
        #expect(turn.answer?.content == "Hi")
        #expect(recorder.added == [true], "the answer was not read on the transfer's thread: the test proves nothing")
        #expect(recorder.finished == [false], "the answer was stored inside libcurl's callback")
        #expect(!afterSend)
        #expect(shutdownSeconds < 2, "shutdown waited for the transfer's thread")
        #expect(client.activeTransfers == 0)
    }

    /// With no recorder, nothing after the answer suspends on its own: `read` itself must leave
    /// the transfer's thread before it returns.
    @Test func readLeavesTheTransfersThreadBeforeItReturns() async throws {
        let server = try Self.answerEndingOnTheTransfersThread()
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let client = CurlHTTPClient()
        let repository = ServerGPTRepositoryTests.repository(server, client: client, readingExecutor: Self.executor)
        let (events, afterRead) = await Task.detached { () -> ([Bool], Bool) in
            var handedOnHere: [Bool] = []
            try? await repository.streamChat(ServerGPTRepositoryTests.request()).read { event in
                if case .text = event { handedOnHere.append(ConsumerExecutor.runsHere) }
            }
            return (handedOnHere, ConsumerExecutor.runsHere)
        }.value
        #expect(events == [true], "the answer was not handed on on the transfer's thread: the test proves nothing")
        #expect(!afterRead, "read returned on the transfer's thread")
        client.shutdown(timeout: 4)
        #expect(client.activeTransfers == 0)
    }
}

/// Notes, for each answer event and for the answer's final write, whether it ran on the thread
/// a delivery came on.
private final class ThreadNotingRecorder: ConversationRecorder, AnswerRecording {
    private let notes = Mutex((added: [Bool](), finished: [Bool]()))

    var added: [Bool] { notes.withLock { $0.added } }
    var finished: [Bool] { notes.withLock { $0.finished } }

    func begin(_ conversation: Conversation) async -> String? { "c1" }

    func append(
        contentsOf messages: [ChatMessage], settings: ChatSettings, systemPrompt: String?, to conversationID: String
    ) async -> [Int64]? {
        messages.indices.map { Int64($0 + 1) }
    }

    func update(_ message: ChatMessage, id: Int64) async {}

    func remove(ids: [Int64]) async {}

    func branch(_ conversationID: String, after messageID: Int64?) async {}

    func compacted(
        _ compaction: Compaction, through messageID: Int64, settings: ChatSettings, usage: TokenUsage?,
        of conversationID: String
    ) async {}

    func recordAnswer(to conversationID: String, settings: ChatSettings, systemPrompt: String?)
        -> any AnswerRecording
    {
        self
    }

    func add(_ event: ChatEvent) {
        if case .text = event { notes.withLock { $0.added.append(ConsumerExecutor.runsHere) } }
    }

    func finish(_ answer: ChatMessage) async -> ChatMessage {
        notes.withLock { $0.finished.append(ConsumerExecutor.runsHere) }
        return answer
    }
}
