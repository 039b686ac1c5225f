import ChatTestSupport
import Foundation
import Testing

/// The real binary's REPL in a pseudo-terminal (tmux): Ctrl-C mid-answer, what the next request
/// carries, line editing with cursor keys and Up-arrow recall, Ctrl-D.
@Suite(.enabled(if: TmuxSession.isAvailable, "needs tmux (apt-get install tmux)"))
struct REPLTerminalTests {
    private func messages(_ request: RecordedRequest) throws -> [(role: String, content: String)] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
        let list = try #require(json["messages"] as? [[String: Any]])
        return list.map { ($0["role"] as? String ?? "", $0["content"] as? String ?? "") }
    }

    @Test func ctrlCStopsOnlyTheAnswerAndEditingChangesWhatIsSent() async throws {
        let server = try LoopbackServer { _, index in
            if index == 0 {
                // A long, slow answer, to be interrupted: a minute of it, so that the test still
                // interrupts it when its own task resumes seconds late (the test pool busy).
                return ServerStep.sse((1...600).map { ServerStep.chatChunk("piece\($0) ") }, pause: 0.1)
            }
            return ServerStep.sse([ServerStep.chatChunk("reply\(index)"), ServerStep.finishChunk()])
        }
        defer { server.stop() }
        let chat = ChatBinary()
        let session = try TmuxSession(
            program: ChatBinary.path, arguments: ["--base-url", server.baseURL],
            environment: chat.environment.merging(["TERM": "xterm"]) { $1 })
        defer { session.kill() }

        #expect(await session.waitForScreen { $0.contains("0 turns") })
        try session.type("first question")
        try session.send("Enter")
        #expect(await session.waitForScreen { $0.contains("piece3 ") })
        try session.send("C-c")
        #expect(await session.waitForScreen { $0.contains("[interrupted") })
        #expect(server.waitForDisconnects(1, timeout: 5))
        #expect(await session.waitForScreen { $0.contains("1 turn") })

        try session.type("second")
        try session.send("Enter")
        #expect(await session.waitForScreen { $0.contains("reply1") })
        let second = try messages(try #require(server.requests.dropFirst().first))
        #expect(second.map(\.role) == ["user", "assistant", "user"])
        #expect(second[1].content.hasPrefix("piece1 piece2 piece3 "))
        #expect(!second[1].content.contains("piece600"))
        #expect(second[2].content == "second")

        // Up recalls "second"; Home, type, End, type: the edited line is what is sent.
        #expect(await session.waitForScreen { $0.contains("2 turns") })
        try session.send("Up")
        try session.send("Home")
        try session.type("X")
        try session.send("End")
        try session.type(" edited")
        try session.send("Enter")
        #expect(await session.waitForScreen { $0.contains("reply2") })
        let third = try messages(try #require(server.requests.dropFirst(2).first))
        #expect(third.last?.content == "Xsecond edited")

        // Ctrl-C at the prompt discards the line; Ctrl-D on an empty line leaves with 0. Wait for
        // the prompt and the typed text first: a Ctrl-C before the prompt reads is the terminal's.
        #expect(await session.waitForScreen { $0.contains("3 turns") })
        try session.type("never sent")
        #expect(await session.waitForScreen { $0.contains("› never sent") })
        try session.send("C-c")
        #expect(await session.waitForScreen { $0.contains("Ctrl-C discards the line") })
        try session.send("C-d")
        #expect(await session.exitStatus() == 0, "screen:\n\(session.screen())")
        #expect(server.requests.count == 3)
    }

    /// SIGTERM or SIGHUP at an idle prompt ends the session with 128 + the signal's number, every
    /// time: the read it ends may return before the signal's handler has asked the session to end.
    @Test(arguments: [(SIGTERM, 143), (SIGHUP, 129), (SIGTERM, 143), (SIGHUP, 129), (SIGTERM, 143)])
    func aTerminatingSignalAtThePromptEndsTheSession(signal: Int32, status: Int) async throws {
        let marker = "v\(UUID().uuidString.prefix(8))"
        let chat = ChatBinary()
        let session = try TmuxSession(
            program: ChatBinary.path, arguments: ["--base-url", "http://127.0.0.1:9/\(marker)"],
            environment: chat.environment.merging(["TERM": "xterm"]) { $1 })
        defer { session.kill() }
        #expect(await session.waitForScreen { $0.contains("0 turns") })
        let pgrep = Process()
        pgrep.executableURL = URL(fileURLWithPath: "/usr/bin/pgrep")
        pgrep.arguments = ["-f", marker]
        let pipe = Pipe()
        pgrep.standardOutput = pipe
        try pgrep.run()
        pgrep.waitUntilExit()
        let pids = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: "\n").compactMap { Int32($0) }
        // The shell around chat has the marker in its command line too; chat is the newest.
        let pid = try #require(pids.max())
        kill(pid, signal)
        #expect(await session.exitStatus() == status, "screen:\n\(session.screen())")
    }

    /// `--code` with no prompt on a terminal would start the REPL, which cannot honour it: one line
    /// says so, and chat exits 2 instead of ignoring the flag.
    @Test func codeWithNoPromptOnATerminalIsAUsageError() async throws {
        let chat = ChatBinary()
        let session = try TmuxSession(
            program: ChatBinary.path, arguments: ["--code", "--base-url", "http://127.0.0.1:9/v1"],
            environment: chat.environment.merging(["TERM": "xterm"]) { $1 })
        defer { session.kill() }
        #expect(await session.exitStatus() == 2, "screen:\n\(session.screen())")
        #expect(session.screen().contains("chat: error: --code prints one answer's code; give a prompt"))
    }
}
