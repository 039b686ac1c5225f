import ChatDomain
import ChatTestSupport
import Foundation
import Testing

@testable import ChatConfig
@testable import ChatHTTP
@testable import ChatHistory
@testable import ChatJSON
@testable import ChatPresentation
@testable import ChatProviders
@testable import ChatSystem

/// One connection per server for the life of a `CurlHTTPClient`: answers, retries and model
/// lists reuse it, against a loopback server that keeps connections alive and counts them.
@Suite(.onOwnThread, .timeLimit(.minutes(1))) struct ConnectionReuseTests {
    static func answer(_ text: String) -> [ServerStep] {
        ServerStep.sse([ServerStep.chatChunk(text), ServerStep.finishChunk()])
    }

    static func repository(_ server: LoopbackServer, _ client: CurlHTTPClient, retries: Int = 0)
        -> ServerGPTRepository
    {
        ServerGPTRepositoryTests.repository(
            server, retry: RetryPolicy(maxRetries: retries, initialDelay: 0.01), client: client)
    }

    @Test func severalAnswersShareOneConnection() async throws {
        let server = try LoopbackServer(keepAlive: true) { _, index in Self.answer("turn \(index)") }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let client = CurlHTTPClient()
        let repository = Self.repository(server, client)
        for turn in 0..<4 {
            let result = await ServerGPTRepositoryTests.collect(
                repository.streamChat(ServerGPTRepositoryTests.request()))
            #expect(result.error == nil, "\(String(describing: result.error))")
            #expect(result.events.first == .text("turn \(turn)"))
        }
        #expect(server.requestConnections == [0, 0, 0, 0])
        #expect(server.acceptedConnections == 1)
        client.shutdown()
    }

    @Test func theModelListAndTheAnswerShareOneConnection() async throws {
        let server = try LoopbackServer(keepAlive: true) { request, _ in
            request.path.hasSuffix("/models")
                ? ServerStep.json(status: 200, #"{"object":"list","data":[{"id":"m1","object":"model"}]}"#)
                : Self.answer("hi")
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let client = CurlHTTPClient()
        let repository = Self.repository(server, client)
        let models = await repository.listModels()
        #expect((try? models.get())?.map(\.id) == ["m1"])
        let result = await ServerGPTRepositoryTests.collect(repository.streamChat(ServerGPTRepositoryTests.request()))
        #expect(result.events.first == .text("hi"))
        #expect(server.requestConnections == [0, 0])
        #expect(server.acceptedConnections == 1)
        client.shutdown()
    }

    /// A 503, then the answer: the retry goes on the connection the 503 came on.
    @Test func aRetryAfterA5xxReusesTheConnection() async throws {
        let server = try LoopbackServer(keepAlive: true) { _, index in
            index == 0
                ? ServerStep.json(status: 503, #"{"error":{"message":"busy","type":"server_error"}}"#)
                : Self.answer("after the retry")
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let client = CurlHTTPClient()
        let result = await ServerGPTRepositoryTests.collect(
            Self.repository(server, client, retries: 1).streamChat(ServerGPTRepositoryTests.request()))
        #expect(result.error == nil, "\(String(describing: result.error))")
        guard case .retrying(1, 1, _, _)? = result.events.first else {
            Issue.record("no retry: \(result.events)")
            return
        }
        #expect(result.events.dropFirst().first == .text("after the retry"))
        #expect(server.requestConnections == [0, 0])
        client.shutdown()
    }

    /// The server closes the kept connection after the first answer, while the client is idle:
    /// the next answer comes on a new one, with no error and no retry note.
    @Test func aConnectionTheServerClosedWhileIdleIsReplacedSilently() async throws {
        let server = try LoopbackServer(keepAlive: true) { _, index in
            index == 0 ? Self.answer("first") + [.close] : Self.answer("second")
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let client = CurlHTTPClient()
        let repository = Self.repository(server, client, retries: 2)
        let first = await ServerGPTRepositoryTests.collect(repository.streamChat(ServerGPTRepositoryTests.request()))
        #expect(first.events.first == .text("first"))
        try await Task.sleep(for: .milliseconds(200))
        let second = await ServerGPTRepositoryTests.collect(repository.streamChat(ServerGPTRepositoryTests.request()))
        #expect(second.error == nil, "\(String(describing: second.error))")
        #expect(second.events == [.text("second"), .finished(reason: "stop")])
        #expect(server.requestConnections == [0, 1])
        client.shutdown()
    }

    /// The kept connection dies as the next request goes out (the server reads it and closes,
    /// answering nothing): libcurl sends it again on a fresh connection, the one case in which a
    /// request reaches the server twice, and the person sees neither an error nor a retry note.
    @Test func aReusedConnectionThatFailsBeforeAnyResponseByteIsReplacedSilently() async throws {
        let server = try LoopbackServer(keepAlive: true) { _, index in
            switch index {
            case 0: Self.answer("first")
            case 1: [.close]
            default: Self.answer("second")
            }
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let client = CurlHTTPClient()
        let repository = Self.repository(server, client, retries: 2)
        _ = await ServerGPTRepositoryTests.collect(repository.streamChat(ServerGPTRepositoryTests.request()))
        let second = await ServerGPTRepositoryTests.collect(repository.streamChat(ServerGPTRepositoryTests.request()))
        #expect(second.error == nil, "\(String(describing: second.error))")
        #expect(second.events == [.text("second"), .finished(reason: "stop")])
        #expect(server.requestConnections == [0, 0, 1])
        #expect(server.requests[1].body == server.requests[2].body)
        client.shutdown()
    }

    /// An answer stopped mid-stream (Ctrl-C) leaves its connection unusable (bytes of it are
    /// still on the way): it is closed, not kept, and the next answer comes whole on a new one.
    @Test func aCancelledAnswerDoesNotPoisonTheConnectionsKept() async throws {
        let server = try LoopbackServer(keepAlive: true) { _, index in
            index == 0
                // Long enough (10 s) that even a reader held up on a busy machine stops it midway.
                ? ServerStep.sse((0..<50).map { ServerStep.chatChunk("piece \($0) ") }, pause: 0.2)
                : Self.answer("whole")
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let client = CurlHTTPClient()
        let repository = Self.repository(server, client)
        let stopped = await Task { () -> ChatError? in
            do throws(ChatError) {
                try await repository.streamChat(ServerGPTRepositoryTests.request()).read { _ in
                    withUnsafeCurrentTask { $0?.cancel() }
                }
            } catch {
                return error
            }
            return nil
        }.value
        #expect(stopped == .cancelled)
        let next = await ServerGPTRepositoryTests.collect(repository.streamChat(ServerGPTRepositoryTests.request()))
        #expect(next.error == nil, "\(String(describing: next.error))")
        #expect(next.events == [.text("whole"), .finished(reason: "stop")])
        #expect(server.requestConnections == [0, 1])
        client.shutdown()
    }

    /// A program started while a connection is kept (an MCP server, an editor, an -x command)
    /// does not inherit it: when the client closes the connection, the server sees it end at
    /// once, not when that program does.
    @Test func aProgramStartedMeanwhileDoesNotHoldTheConnectionOpen() async throws {
        let server = try LoopbackServer(keepAlive: true) { _, _ in Self.answer("kept") }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        var client: CurlHTTPClient? = CurlHTTPClient()
        let result = await ServerGPTRepositoryTests.collect(
            Self.repository(server, try #require(client)).streamChat(ServerGPTRepositoryTests.request()))
        #expect(result.events.first == .text("kept"))
        #expect(server.openConnections == 1)
        // libcurl's socket is close-on-exec itself: the child is started with plain posix_spawn,
        // not ProcessSpawn (which also closes every descriptor above 2 in its children).
        let sockets = Self.descriptors(connectedToPort: server.port)
        #expect(sockets.count == 1)
        for socket in sockets { #expect(fcntl(socket, F_GETFD) & FD_CLOEXEC != 0) }
        var child: pid_t = 0
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup("30"), nil]
        defer { argv.forEach { free($0) } }
        #expect(posix_spawn(&child, "/bin/sleep", nil, nil, &argv, environ) == 0)
        defer {
            kill(child, SIGKILL)
            _ = ProcessSpawn.wait(child)
        }
        // Its transfer threads ended, the client's last reference goes: its kept connection closes.
        client?.shutdown()
        client = nil
        #expect(await LoopbackTestHelpers.eventually(timeout: 5) { server.openConnections == 0 })
    }

    /// This process's descriptors of TCP connections to 127.0.0.1:`port`.
    static func descriptors(connectedToPort port: Int) -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap(Int32.init).filter { descriptor in
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let named = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &length) == 0 }
            }
            return named && address.sin_family == sa_family_t(AF_INET)
                && Int(UInt16(bigEndian: address.sin_port)) == port
        }
    }
}
