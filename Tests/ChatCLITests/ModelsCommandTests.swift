import ChatTestSupport
import Foundation
import Testing

/// A server whose `GET /models` lists three models and whose chat requests answer "ok".
private func modelServer() throws -> LoopbackServer {
    try LoopbackServer { request, _ in
        if request.method == "GET" {
            return ServerStep.json(
                status: 200,
                #"{"object": "list", "data": [{"id": "zeta-model", "owned_by": "z-lab"}, {"id": "gpt-4o-mini", "owned_by": "openai"}, {"id": "alpha-model"}]}"#
            )
        }
        return ServerStep.sse([ServerStep.chatChunk("ok"), ServerStep.finishChunk()])
    }
}

/// `chat --models` end to end, and the list kept for a day.
@Suite(.timeLimit(.minutes(1)))
struct ModelsCommandTests {
    @Test func modelsListsOneAMinuteWhenPipedAndKeepsTheListForADay() async throws {
        let server = try modelServer()
        defer { server.stop() }
        let chat = ChatBinary()
        let result = try await chat.run(["--base-url", server.baseURL, "--models"])
        #expect(result.status == 0)
        #expect(result.stdout == "alpha-model\ngpt-4o-mini\nzeta-model\n")
        #expect(result.stderr == "")
        #expect(server.requests.map(\.path) == ["/v1/models"])

        // Kept in the data directory: the next run does not ask.
        let again = try await chat.run(["--base-url", server.baseURL, "--models"])
        #expect(again.stdout == result.stdout)
        #expect(server.requests.count == 1)
        let kept = chat.home + "/data/chat/models.json"
        #expect(chat.mode(kept) == 0o600)

        // A day later it asks again.
        let text = try String(contentsOfFile: kept, encoding: .utf8)
        let old = text.replacing(/"fetched_at":[0-9.e+]+/, with: #""fetched_at":1000"#)
        try old.write(toFile: kept, atomically: true, encoding: .utf8)
        _ = try await chat.run(["--base-url", server.baseURL, "--models"])
        #expect(server.requests.count == 2)

        // With history off nothing is kept.
        let fresh = ChatBinary()
        _ = try await fresh.run(["--base-url", server.baseURL, "--no-history", "--models"])
        #expect(!FileManager.default.fileExists(atPath: fresh.home + "/data/chat/models.json"))
        #expect(!FileManager.default.fileExists(atPath: fresh.home + "/data/chat/history.sqlite"))
    }

    @Test func aFailureIsOneLineAndAStrayWordIsAUsageError() async throws {
        let failing = try LoopbackServer { _, _ in
            ServerStep.json(status: 401, #"{"error": {"message": "Incorrect API key provided"}}"#)
        }
        defer { failing.stop() }
        let chat = ChatBinary()
        let result = try await chat.run(["--base-url", failing.baseURL, "--retries", "0", "--models"])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("chat: error: 401 unauthorized: Incorrect API key provided"))
        let stray = try await chat.run(["--base-url", failing.baseURL, "--models", "gpt"])
        #expect(stray.status == 2)
        #expect(stray.stderr == "chat: error: unexpected \"gpt\" after --models\n")
    }

    @Test func theNotFoundAdviceNamesModels() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.json(status: 404, #"{"error": {"message": "The model `gpt-9` does not exist"}}"#)
        }
        defer { server.stop() }
        let result = try await ChatBinary().run(["--base-url", server.baseURL, "-m", "gpt-9", "hi"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("(check the model name: chat --models lists them)"))
    }
}

/// On a terminal: `--models` is a table, and Tab completes model names after `/model`.
@Suite(.enabled(if: TmuxSession.isAvailable, "needs tmux (apt-get install tmux)"), .timeLimit(.minutes(1)))
struct ModelsTerminalTests {
    @Test func modelsIsATableWithTheModelInUseMarked() async throws {
        let server = try modelServer()
        defer { server.stop() }
        let chat = ChatBinary()
        let session = try TmuxSession(
            program: ChatBinary.path, arguments: ["--base-url", server.baseURL, "--models"],
            environment: chat.environment.merging(["TERM": "xterm"]) { $1 })
        defer { session.kill() }
        #expect(await session.exitStatus() == 0)
        let screen = session.screen()
        #expect(
            screen.contains("  MODEL        OWNED BY\n  alpha-model\n* gpt-4o-mini  openai\n  zeta-model   z-lab"),
            "\(screen)")
    }

    @Test func tabCompletesModelNamesFetchedOnceAndConversationsAfterResume() async throws {
        let server = try modelServer()
        defer { server.stop() }
        let chat = ChatBinary()
        _ = try await chat.run(["--base-url", server.baseURL, "a question about bread"])
        let session = try TmuxSession(
            program: ChatBinary.path, arguments: ["--base-url", server.baseURL],
            environment: chat.environment.merging(["TERM": "xterm"]) { $1 })
        defer { session.kill() }
        #expect(await session.waitForScreen { $0.contains("0 turns") })
        try session.type("/model ")
        try session.send("Tab")
        #expect(await session.waitForScreen { $0.contains("zeta-model  gpt-4o-mini  alpha-model") })
        try session.type("ze")
        try session.send("Tab")
        #expect(await session.waitForScreen { $0.contains("› /model zeta-model") })
        try session.send("Enter")
        #expect(await session.waitForScreen { $0.contains("zeta-model · 0 turns") })
        try session.type("/model a")
        try session.send("Tab")
        #expect(await session.waitForScreen { $0.contains("› /model alpha-model") })
        try session.send("C-u")
        // One GET for the session (the one-shot before sent the only POST).
        #expect(server.requests.filter { $0.method == "GET" }.count == 1)

        try session.type("/resume bre")
        try session.send("Tab")
        let id = try await chat.run(["--list"]).stdout.prefix(8)
        #expect(await session.waitForScreen { $0.contains("› /resume \(id)") }, "\(session.screen())")
        try session.send("Enter")
        #expect(await session.waitForScreen { $0.contains("resumed \(id)") })
        try session.send("C-d")
        #expect(await session.exitStatus() == 0)

        // A later session within the day completes from the kept list without asking the server.
        let later = try TmuxSession(
            program: ChatBinary.path, arguments: ["--base-url", server.baseURL],
            environment: chat.environment.merging(["TERM": "xterm"]) { $1 })
        defer { later.kill() }
        #expect(await later.waitForScreen { $0.contains("0 turns") })
        try later.type("/model gp")
        try later.send("Tab")
        #expect(await later.waitForScreen { $0.contains("› /model gpt-4o-mini") })
        #expect(server.requests.filter { $0.method == "GET" }.count == 1)
        try later.send("C-u", "C-d")
        #expect(await later.exitStatus() == 0)
    }
}
