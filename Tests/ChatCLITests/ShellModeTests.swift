import ChatTestSupport
import Foundation
import Testing

/// A server whose answer is `touch MARKER` in a fence (MARKER a file in `home`), or, asked to
/// describe a command, a sentence about it.
private func commandServer(marker: String) throws -> LoopbackServer {
    try LoopbackServer { request, _ in
        if request.bodyText.contains("Describe this command") {
            return ServerStep.sse([ServerStep.chatChunk("It creates an empty file."), ServerStep.finishChunk()])
        }
        return ServerStep.sse([ServerStep.chatChunk("```sh\ntouch \(marker)\n```"), ServerStep.finishChunk()])
    }
}

private func messages(_ request: RecordedRequest) throws -> [(role: String, content: String)] {
    let body = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
    return try #require(body["messages"] as? [[String: Any]]).map {
        ($0["role"] as? String ?? "", $0["content"] as? String ?? "")
    }
}

/// `chat -x` without a terminal: the command is printed, never run.
@Suite(.timeLimit(.minutes(1)))
struct ShellModeTests {
    @Test func onAPipeTheCommandIsPrintedOnlyAndNeverRun() async throws {
        let chat = ChatBinary(environment: ["SHELL": "/bin/bash"])
        let marker = chat.home + "/ran"
        let server = try commandServer(marker: marker)
        defer { server.stop() }
        let result = try await chat.run(["--base-url", server.baseURL, "-x", "make", "a", "marker", "file"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "touch \(marker)\n")
        #expect(result.stderr == "")
        #expect(!FileManager.default.fileExists(atPath: marker))
        // The shell role: one command for this shell.
        let sent = try messages(try server.request(0))
        #expect(sent.first?.role == "system")
        #expect(sent.first?.content.contains("one command for the bash shell on ") == true)
        #expect(sent.last?.content == "make a marker file")
        // The exchange is in chat's own history.
        #expect(try await chat.run(["--list"]).stdout.contains("1 turn  make a marker file"))
    }

    @Test func usageErrors() async throws {
        let chat = ChatBinary()
        let interactive = try await chat.run(["-x", "-i", "find"])
        #expect(interactive.status == 2)
        #expect(interactive.stderr == "chat: error: -x asks for one command; it does not go with -i\n")
        let code = try await chat.run(["--code", "-x", "find"])
        #expect(code.status == 2)
        #expect(code.stderr == "chat: error: -x shows the command alone already; it does not go with --code\n")
        let append = try await chat.run(["--history-append", "find"])
        #expect(append.status == 2)
        #expect(append.stderr == "chat: error: --history-append goes with -x\n")
        let nothing = try await chat.run(["--base-url", "http://127.0.0.1:9/v1", "-x"], input: "")
        #expect(nothing.status == 2)
        #expect(nothing.stderr.hasPrefix("chat: error: say what the command should do"))
    }
}

/// `chat -x` on a terminal, under tmux: each answer to the question.
@Suite(.enabled(if: TmuxSession.isAvailable, "needs tmux (apt-get install tmux)"), .timeLimit(.minutes(2)))
struct ShellModeTerminalTests {
    private func start(_ chat: ChatBinary, _ server: LoopbackServer, extra: [String] = []) throws -> TmuxSession {
        let session = try TmuxSession(
            program: ChatBinary.path,
            arguments: ["--base-url", server.baseURL] + extra + ["-x", "make a marker file"],
            environment: chat.environment.merging(["TERM": "xterm", "SHELL": "/bin/bash"]) { $1 })
        return session
    }

    @Test func yRunsItInTheShellAndItsStatusIsChats() async throws {
        let chat = ChatBinary()
        let marker = chat.home + "/ran"
        let server = try commandServer(marker: marker)
        defer { server.stop() }
        let session = try start(chat, server, extra: ["--history-append"])
        defer { session.kill() }
        #expect(await session.waitForScreen { $0.contains("[n]o") })
        #expect(session.screen().contains("touch \(marker)\nrun it? [y]es, [e]dit, [d]escribe, [n]o"))
        #expect(!FileManager.default.fileExists(atPath: marker))
        try session.send("y")
        #expect(await session.exitStatus() == 0, "\(session.screen())")
        #expect(FileManager.default.fileExists(atPath: marker))
        // --history-append: in bash's history file.
        #expect(try String(contentsOfFile: chat.home + "/.bash_history", encoding: .utf8) == "touch \(marker)\n")
    }

    @Test func eEditsItFirstAndTheEditedCommandRunsWithItsStatus() async throws {
        let chat = ChatBinary()
        let marker = chat.home + "/ran"
        let server = try commandServer(marker: marker)
        defer { server.stop() }
        let session = try start(chat, server)
        defer { session.kill() }
        #expect(await session.waitForScreen { $0.contains("[n]o") })
        try session.send("e")
        #expect(await session.waitForScreen { $0.contains("edit › touch \(marker)") })
        try session.type("_edited; exit 7")
        try session.send("Enter")
        #expect(await session.waitForScreen { $0.contains("exit 7\nrun it?") })
        try session.send("y")
        #expect(await session.exitStatus() == 7, "\(session.screen())")
        #expect(FileManager.default.fileExists(atPath: marker + "_edited"))
        #expect(!FileManager.default.fileExists(atPath: marker))
        // Without --history-append the shell's history is left alone.
        #expect(!FileManager.default.fileExists(atPath: chat.home + "/.bash_history"))
    }

    @Test func eKeepsAMultiLineCommandWhole() async throws {
        let chat = ChatBinary()
        let marker = chat.home + "/ran"
        let server = try LoopbackServer { _, _ in
            ServerStep.sse([
                ServerStep.chatChunk("for f in a b; do\n\ttouch \(marker)_$f\ndone"), ServerStep.finishChunk(),
            ])
        }
        defer { server.stop() }
        let session = try start(chat, server)
        defer { session.kill() }
        #expect(await session.waitForScreen { $0.contains("[n]o") })
        try session.send("e")
        #expect(await session.waitForScreen { $0.contains("edit › for f in a b; do") })
        // The newlines and the tab went in as text: End is the end of the last line.
        try session.send("End")
        try session.type(" # checked")
        try session.send("Enter")
        #expect(await session.waitForScreen { $0.contains("done # checked\nrun it?") }, "\(session.screen())")
        try session.send("y")
        #expect(await session.exitStatus() == 0, "\(session.screen())")
        #expect(FileManager.default.fileExists(atPath: marker + "_a"))
        #expect(FileManager.default.fileExists(atPath: marker + "_b"))
    }

    @Test func ctrlCInTheEditorLeavesItUnrun() async throws {
        let chat = ChatBinary()
        let marker = chat.home + "/ran"
        let server = try commandServer(marker: marker)
        defer { server.stop() }
        let session = try start(chat, server)
        defer { session.kill() }
        #expect(await session.waitForScreen { $0.contains("[n]o") })
        try session.send("e")
        #expect(await session.waitForScreen { $0.contains("edit › touch \(marker)") })
        try session.send("C-c")
        #expect(await session.exitStatus() == 130, "\(session.screen())")
        #expect(session.screen().contains("chat: not run"))
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test func dDescribesItAndAsksAgain() async throws {
        let chat = ChatBinary()
        let marker = chat.home + "/ran"
        let server = try commandServer(marker: marker)
        defer { server.stop() }
        let session = try start(chat, server)
        defer { session.kill() }
        #expect(await session.waitForScreen { $0.contains("[n]o") })
        try session.send("d")
        #expect(await session.waitForScreen { $0.contains("It creates an empty file.\nrun it?") })
        let describe = try messages(try server.request(1))
        #expect(describe.last?.content == "Describe this command: touch \(marker)")
        #expect(describe.count == 4)
        try session.send("n")
        #expect(await session.exitStatus() == 1)
        #expect(session.screen().contains("chat: not run"))
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test func onAPipeInATerminalTheCommandIsPrintedOnlyAndNothingIsAsked() async throws {
        let chat = ChatBinary()
        let marker = chat.home + "/ran"
        let server = try commandServer(marker: marker)
        defer { server.stop() }
        // A terminal is there (/dev/tty), but stdout is a pipe: print, never ask, never run.
        let script = "\(ChatBinary.path) --base-url \(server.baseURL) -x make a marker file | tee \(chat.home)/out"
        let session = try TmuxSession(
            program: "/bin/sh", arguments: ["-c", script],
            environment: chat.environment.merging(["TERM": "xterm", "SHELL": "/bin/bash"]) { $1 })
        defer { session.kill() }
        #expect(await session.exitStatus() == 0, "\(session.screen())")
        #expect(!session.screen().contains("run it?"))
        #expect(try String(contentsOfFile: chat.home + "/out", encoding: .utf8) == "touch \(marker)\n")
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test func withPipedInputItStillAsksOnTheTerminal() async throws {
        let chat = ChatBinary()
        let marker = chat.home + "/ran"
        let server = try commandServer(marker: marker)
        defer { server.stop() }
        let script = "echo notes.txt | \(ChatBinary.path) --base-url \(server.baseURL) -x make a marker file"
        let session = try TmuxSession(
            program: "/bin/sh", arguments: ["-c", script],
            environment: chat.environment.merging(["TERM": "xterm", "SHELL": "/bin/bash"]) { $1 })
        defer { session.kill() }
        #expect(await session.waitForScreen { $0.contains("[n]o") })
        // The piped text went with the request.
        #expect(try messages(try server.request(0)).last?.content == "make a marker file\n\nnotes.txt")
        try session.send("y")
        #expect(await session.exitStatus() == 0, "\(session.screen())")
        #expect(FileManager.default.fileExists(atPath: marker))
    }

    @Test(arguments: [(SIGTERM, 143), (SIGHUP, 129)])
    func aSignalWhileItAsksLeavesItUnrun(signal: Int32, status: Int) async throws {
        let chat = ChatBinary()
        let marker = chat.home + "/ran"
        let server = try commandServer(marker: marker)
        defer { server.stop() }
        let session = try start(chat, server)
        defer { session.kill() }
        #expect(await session.waitForScreen { $0.contains("[n]o") })
        let pid = try #require(Self.process(withArgument: server.baseURL))
        kill(pid, signal)
        #expect(await session.exitStatus() == status, "\(session.screen())")
        #expect(session.screen().contains("chat: not run"))
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    /// The process one of whose arguments is `argument`.
    private static func process(withArgument argument: String) -> pid_t? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = pid_t(entry),
                let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
            else { continue }
            let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            if arguments.first == ChatBinary.path && arguments.contains(argument) { return pid }
        }
        return nil
    }

    @Test(arguments: [("n", 1), ("Enter", 1), ("C-c", 130)])
    func nEnterAndCtrlCLeaveItUnrun(key: String, status: Int) async throws {
        let chat = ChatBinary()
        let marker = chat.home + "/ran"
        let server = try commandServer(marker: marker)
        defer { server.stop() }
        let session = try start(chat, server)
        defer { session.kill() }
        #expect(await session.waitForScreen { $0.contains("[n]o") })
        try session.send(key)
        #expect(await session.exitStatus() == status, "\(session.screen())")
        #expect(session.screen().contains("chat: not run"))
        #expect(!FileManager.default.fileExists(atPath: marker))
    }
}
