import ChatTestSupport
import Foundation
import Testing

/// One connection per server for the life of the process: the built binary's REPL, several
/// turns behind a pipe, against servers that keep connections alive and count them; and the
/// connection made ahead while the person types, which sends nothing.
@Suite struct ConnectionReuseCommandTests {
    private static let turns = "one\ntwo\nthree\nfour\n"

    @Test func aREPLOfSeveralTurnsOpensOneConnection() async throws {
        let server = try LoopbackServer(keepAlive: true) { _, index in
            ServerStep.sse([ServerStep.chatChunk("turn \(index + 1)"), ServerStep.finishChunk()])
        }
        defer { server.stop() }
        let chat = ChatBinary(environment: ["OPENAI_API_KEY": "sk-test"])
        let result = try await chat.run(["-i", "--base-url", server.baseURL], input: Self.turns)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout == "turn 1\nturn 2\nturn 3\nturn 4\n")
        #expect(server.requestConnections == [0, 0, 0, 0])
        #expect(server.acceptedConnections == 1)
    }

    /// Over TLS the REPL also connects ahead while the person types, and the first turn goes on
    /// that connection (HTTP/1.1 here), and every later turn too: one connection in all.
    @Test(.enabled(if: TestCA.isAvailable, "needs openssl (scripts/deps --tests)"))
    func aREPLOverTLSSendsEveryTurnOnOneConnection() async throws {
        let chat = ChatBinary(environment: ["OPENAI_API_KEY": "sk-test"])
        let ca = try await TestCA.make(chat)
        let server = try await CountingProcess(
            chat, script: CountingProcess.keepAliveTLSServer, arguments: [ca.serverCertificate, ca.serverKey])
        let result = try await chat.run(
            ["-i", "--base-url", "https://127.0.0.1:\(server.port)/v1", "--ca-cert", ca.certificate], input: Self.turns)
        await server.stop()
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout == "turn 1\nturn 2\nturn 3\nturn 4\n")
        let requests = server.numbers("request")
        #expect(requests.count == 4 && Set(requests).count == 1, "requests on connections \(requests)")
        #expect(server.numbers("accept") == [0], "connections \(server.numbers("accept"))")
        #expect(requests == [0, 0, 0, 0], "requests on connections \(requests)")
    }

    /// The connection made ahead sends nothing: a REPL the person leaves without a question
    /// makes that one connection, and no request.
    @Test(.enabled(if: TestCA.isAvailable, "needs openssl (scripts/deps --tests)"))
    func aREPLLeftWithoutAQuestionSendsNothing() async throws {
        let chat = ChatBinary(environment: ["OPENAI_API_KEY": "sk-test"])
        let ca = try await TestCA.make(chat)
        let server = try await CountingProcess(
            chat, script: CountingProcess.keepAliveTLSServer, arguments: [ca.serverCertificate, ca.serverKey])
        // Standard input open for 2 s, as while the person thinks, then closed without a line.
        let result = try await chat.start(
            [
                "-c", #"sleep 2 | exec "$0" -i --base-url "$1" --ca-cert "$2""#, ChatBinary.path,
                "https://127.0.0.1:\(server.port)/v1", ca.certificate,
            ], executable: "/bin/sh"
        ).wait(timeout: 20)
        await server.stop()
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout == "" && result.stderr == "", "stderr: \(result.stderr)")
        #expect(server.numbers("accept") == [0])
        #expect(server.numbers("request") == [])
    }

    /// The server closes the connection made ahead while the person types (an idle timeout):
    /// the question goes on a new connection, with no error and no retry note.
    @Test(.enabled(if: TestCA.isAvailable, "needs openssl (scripts/deps --tests)"))
    func aConnectionMadeAheadThatTheServerClosedIsReplacedSilently() async throws {
        let (result, server) = try await Self.question(after: 1.5, serverOptions: ["idle-close=0.5"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout == "turn 1\n" && result.stderr == "", "stderr: \(result.stderr)")
        #expect(server.numbers("accept") == [0, 1], "connections \(server.numbers("accept"))")
        #expect(server.numbers("request") == [1])
    }

    /// The connection made ahead dies as the question goes out (the server reads it and closes,
    /// answering nothing): the question is sent again on a new connection, the one case in which
    /// a request reaches the server twice, and the person sees neither an error nor a note.
    @Test(.enabled(if: TestCA.isAvailable, "needs openssl (scripts/deps --tests)"))
    func aConnectionMadeAheadThatFailsBeforeAnyResponseByteIsReplacedSilently() async throws {
        let (result, server) = try await Self.question(after: 1, serverOptions: ["drop-first"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout == "turn 1\n" && result.stderr == "", "stderr: \(result.stderr)")
        #expect(server.numbers("request") == [0, 1])
        #expect(server.numbers("badbody") == [])
    }

    /// A one-shot whose question is still being piped in connects meanwhile, and the question
    /// goes on that connection, whole.
    @Test(.enabled(if: TestCA.isAvailable, "needs openssl (scripts/deps --tests)"))
    func aOneShotReadingItsQuestionSendsItOnTheConnectionMadeMeanwhile() async throws {
        let (result, server) = try await Self.question(after: 1, interactive: false)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout == "turn 1\n", "stderr: \(result.stderr)")
        #expect(server.numbers("accept") == [0] && server.numbers("request") == [0])
        #expect(server.numbers("badbody") == [])
    }

    /// One question, typed (piped) `seconds` after the start, to a counting TLS server started
    /// with `serverOptions`; the REPL's (`-i`) or a one-shot's.
    private static func question(after seconds: Double, serverOptions: [String] = [], interactive: Bool = true)
        async throws -> (ChatBinary.Result, CountingProcess)
    {
        let chat = ChatBinary(environment: ["OPENAI_API_KEY": "sk-test"])
        let ca = try await TestCA.make(chat)
        let server = try await CountingProcess(
            chat, script: CountingProcess.keepAliveTLSServer,
            arguments: [ca.serverCertificate, ca.serverKey] + serverOptions)
        let result = try await chat.start(
            [
                "-c", #"(sleep "$3"; echo hello) | exec "$0" $4 --base-url "$1" --ca-cert "$2""#, ChatBinary.path,
                "https://127.0.0.1:\(server.port)/v1", ca.certificate, String(seconds), interactive ? "-i" : "",
            ], executable: "/bin/sh"
        ).wait(timeout: 20)
        await server.stop()
        return (result, server)
    }

    /// Through an HTTP proxy, the tunnel (CONNECT) is kept with the connection inside it.
    @Test(.enabled(if: TestCA.isAvailable, "needs openssl (scripts/deps --tests)"))
    func aREPLThroughAProxyKeepsItsTunnel() async throws {
        let setup = ChatBinary()
        let ca = try await TestCA.make(setup)
        let server = try await CountingProcess(
            setup, script: CountingProcess.keepAliveTLSServer, arguments: [ca.serverCertificate, ca.serverKey])
        let proxy = try await CountingProcess(setup, script: CountingProcess.connectProxy)
        let chat = ChatBinary(environment: [
            "OPENAI_API_KEY": "sk-test", "HTTPS_PROXY": "http://127.0.0.1:\(proxy.port)",
        ])
        let result = try await chat.run(
            ["-i", "--base-url", "https://127.0.0.1:\(server.port)/v1", "--ca-cert", ca.certificate], input: Self.turns)
        await server.stop()
        await proxy.stop()
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout == "turn 1\nturn 2\nturn 3\nturn 4\n")
        let requests = server.numbers("request")
        #expect(requests.count == 4 && Set(requests).count == 1, "requests on connections \(requests)")
        // One tunnel: the connection made ahead, which the turns then used.
        #expect(proxy.numbers("tunnel").count == 1, "tunnels \(proxy.numbers("tunnel"))")
    }

    /// The connection made ahead fails quietly: a REPL the person leaves without a question
    /// says nothing of a server nobody listens on, and a question then sent is refused as today.
    @Test func anUnreachableServerIsReportedOnlyWhenAQuestionIsSent() async throws {
        try await RefusingPort.with { port in
            let chat = ChatBinary(environment: ["OPENAI_API_KEY": "sk-test"])
            let base = ["-i", "--base-url", "https://127.0.0.1:\(port)/v1", "--retries", "0"]
            let quiet = try await chat.run(base, input: "")
            #expect(quiet.status == 0, "stderr: \(quiet.stderr)")
            #expect(quiet.stderr == "", "stderr: \(quiet.stderr)")
            let asked = try await chat.run(base, input: "hello\n")
            #expect(asked.stderr.contains("connection failed"), "stderr: \(asked.stderr)")
        }
    }
}
