import ChatTestSupport
import Foundation
import Testing

@testable import ChatHistory

/// A server whose answer to its `n`th request (from 0) is `answer n`; answer `slow` waits
/// `pause` seconds before its text.
private func answers(slow: Int? = nil, pause: Double = 0) throws -> LoopbackServer {
    try LoopbackServer { _, index in
        let events = [ServerStep.chatChunk("answer \(index)"), ServerStep.finishChunk()]
        guard index == slow else { return ServerStep.sse(events) }
        return ServerStep.sse([ServerStep.chatChunk("")] + events, pause: pause)
    }
}

extension ChatBinary {
    var historyPath: String { home + "/data/chat/history.sqlite" }

    /// A temporary directory of its own, as `$TMPDIR`.
    var temporaryDirectory: String { home + "/tmp" }

    /// The lines chat wrote on stderr.
    static func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    /// The files chat kept unstored conversations in.
    func keptFiles() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporaryDirectory)) ?? []
        return names.filter { $0.hasPrefix("chat-unstored-") }.map { temporaryDirectory + "/" + $0 }
    }

    /// The contents of every message of the kept conversation file at `path`.
    func keptMessages(_ path: String) throws -> [String] {
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        return (json["messages"] as? [[String: Any]] ?? []).compactMap { $0["content"] as? String }
    }
}

/// Each accident a history meets, tried as a person would: one line says what happened, the
/// answer is still printed, and no conversation that can still be stored is lost.
@Suite(.timeLimit(.minutes(2)))
struct HistoryAccidentTests {
    @Test func aDamagedHistoryIsSalvagedOnceAndListAndSearchKeepWorking() async throws {
        let server = try answers()
        defer { server.stop() }
        let chat = ChatBinary()
        for question in ["first question", "second question", "third question"] {
            #expect(try await chat.run(["--base-url", server.baseURL, question]).status == 0)
        }
        // Everything into the database file, then its header overwritten (as a careless copy
        // or a bad disk leaves it).
        try SQLiteConnection(path: chat.historyPath).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let handle = try #require(FileHandle(forUpdatingAtPath: chat.historyPath))
        try handle.write(contentsOf: Data(repeating: 0, count: 100))
        try handle.close()

        let list = try await chat.run(["--list"])
        #expect(list.status == 0)
        #expect(ChatBinary.lines(list.stdout).count == 3)
        let warning = try #require(ChatBinary.lines(list.stderr).first)
        #expect(ChatBinary.lines(list.stderr).count == 1)
        #expect(warning.hasPrefix("chat: warning: history: the database was damaged and a new one started: "))
        #expect(warning.contains("3 conversations recovered; the damaged file is kept as \(chat.historyPath).damaged-"))

        // Said once: every later run just works.
        let again = try await chat.run(["--search", "second"])
        #expect(again.status == 0)
        #expect(again.stdout.contains("second question"))
        #expect(again.stderr == "")
        let next = try await chat.run(["--base-url", server.baseURL, "-c", "and a fourth"])
        #expect(next.stdout == "answer 3\n")
        #expect(next.stderr == "")
    }

    @Test func aFileThatIsNotAHistoryIsSetAsideAndTheOneShotIsStoredInANewOne() async throws {
        let server = try answers()
        defer { server.stop() }
        let chat = ChatBinary()
        try FileManager.default.createDirectory(atPath: chat.home + "/data/chat", withIntermediateDirectories: true)
        try Data("not a database at all\n".utf8).write(to: URL(fileURLWithPath: chat.historyPath))

        let run = try await chat.run(["--base-url", server.baseURL, "a question"])
        #expect(run.status == 0)
        #expect(run.stdout == "answer 0\n")
        #expect(
            run.stderr.hasPrefix(
                "chat: warning: history: the database was damaged and a new one started: no conversation recovered; "))
        #expect(ChatBinary.lines(run.stderr).count == 1)
        #expect(try await chat.listed().count == 1)
    }

    @Test func aHistoryLockedByAProcessThatHangsCostsSecondsAndOneLineNotTheAnswer() async throws {
        let server = try answers()
        defer { server.stop() }
        var chat = ChatBinary()
        chat.environment["TMPDIR"] = chat.home
        #expect(try await chat.run(["--base-url", server.baseURL, "before"]).status == 0)
        // Another program takes the write lock and never lets go.
        let holder = try SQLiteConnection(path: chat.historyPath)
        try holder.execute("BEGIN IMMEDIATE")
        try holder.execute("UPDATE conversation SET title = title")

        let started = ContinuousClock.now
        let run = try await chat.run(["--base-url", server.baseURL, "while it hangs"], timeout: 40)
        let took = ContinuousClock.now - started
        #expect(run.status == 0)
        #expect(run.stdout == "answer 1\n")
        let lines = ChatBinary.lines(run.stderr)
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("chat: warning: history: 2 messages not stored (database is locked); ") == true)
        #expect(took < .seconds(15), "took \(took)")
        // Reading goes on meanwhile.
        #expect(try await chat.listed().count == 1)

        try holder.execute("ROLLBACK")
        let later = try await chat.run(["--base-url", server.baseURL, "after"])
        #expect(later.stderr == "")
        #expect(try await chat.listed().count == 2)
    }
}

/// Accidents that need root: a full disk (a small tmpfs, filled), another user's history, and
/// a data directory that is not this user's.
@Suite(
    .timeLimit(.minutes(2)), .serialized,
    .enabled(if: SmallFileSystem.available, "needs root, to mount a small tmpfs and to run chat as another user"))
struct HistoryAccidentAsRootTests {
    /// chat with its data directory on `disk`.
    private func chat(on disk: SmallFileSystem) throws -> ChatBinary {
        var chat = ChatBinary()
        chat.environment["XDG_DATA_HOME"] = disk.path
        chat.environment["TMPDIR"] = chat.temporaryDirectory
        try FileManager.default.createDirectory(atPath: chat.temporaryDirectory, withIntermediateDirectories: true)
        return chat
    }

    @Test func aOneShotOnAFullDiskPrintsItsAnswerAndKeepsTheConversationInAFile() async throws {
        let server = try answers()
        defer { server.stop() }
        let disk = try SmallFileSystem(kilobytes: 1024)
        let chat = try chat(on: disk)
        #expect(try await chat.run(["--base-url", server.baseURL, "while there is room"]).status == 0)

        disk.fill()
        let run = try await chat.run(["--base-url", server.baseURL, "on a full disk"])
        #expect(run.status == 0)
        #expect(run.stdout == "answer 1\n")
        let kept = try #require(chat.keptFiles().first)
        #expect(
            run.stderr
                == "chat: warning: history: 2 messages not stored (database or disk is full); the conversation is "
                + "kept in \(kept) instead (/load it in chat -i to go on)\n")
        #expect(try chat.keptMessages(kept) == ["on a full disk", "answer 1"])

        disk.empty()
        let later = try await chat.run(["--base-url", server.baseURL, "room again"])
        #expect(later.stderr == "")
        #expect(try await chat.run(["--list"]).stdout.split(separator: "\n").count == 2)
    }

    @Test func aREPLOnAFullDiskStoresEveryMessageInOrderOnceThereIsRoom() async throws {
        let server = try answers(slow: 2, pause: 1.5)
        defer { server.stop() }
        let disk = try SmallFileSystem(kilobytes: 1024)
        let chat = try chat(on: disk)
        #expect(try await chat.run(["--base-url", server.baseURL, "while there is room"]).status == 0)
        disk.fill()

        let running = try chat.start(
            ["-i", "--base-url", server.baseURL], input: "kept in memory\nstill in memory\nstored at once\n")
        #expect(await running.waitForOutput(containing: "answer 1"))
        // While the next answer is on its way, room comes back.
        disk.empty()
        let result = await running.wait()
        #expect(result.status == 0)
        #expect(result.stdout.contains("answer 3"))
        let lines = ChatBinary.lines(result.stderr)
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("chat: warning: history: could not save (database or disk is full)") == true)
        #expect(chat.keptFiles().isEmpty)

        let id = try await chat.id(of: "kept in memory")
        let show = try await chat.run(["--show", id])
        #expect(
            show.stdout == "you:\nkept in memory\n\nassistant:\nanswer 1\n\nyou:\nstill in memory\n\nassistant:\n"
                + "answer 2\n\nyou:\nstored at once\n\nassistant:\nanswer 3\n\n")
    }

    @Test(.enabled(if: TmuxSession.isAvailable, "needs tmux (apt-get install tmux)"))
    func aREPLOnAFullDiskOffersSaveBeforeItEnds() async throws {
        let server = try answers()
        defer { server.stop() }
        let disk = try SmallFileSystem(kilobytes: 1024)
        let chat = try chat(on: disk)
        #expect(try await chat.run(["--base-url", server.baseURL, "while there is room"]).status == 0)
        disk.fill()
        let session = try TmuxSession(
            program: ChatBinary.path, arguments: ["--base-url", server.baseURL],
            environment: chat.environment.merging(["TERM": "xterm"]) { $1 })
        defer { session.kill() }
        #expect(await session.waitForScreen { $0.contains("0 turns") })
        try session.type("a question on a full disk")
        try session.send("Enter")
        #expect(await session.waitForScreen { $0.contains("answer 1") })
        try session.send("C-d")
        #expect(
            await session.waitForScreen {
                $0.contains("2 messages not stored (database or disk is full): /save FILE keeps the conversation")
            })
        let saved = chat.temporaryDirectory + "/saved.json"
        try session.type("/save \(saved)")
        try session.send("Enter")
        #expect(await session.waitForScreen { $0.contains("saved 2 messages") })
        try session.send("C-d")
        #expect(await session.exitStatus() == 0, "screen:\n\(session.screen())")
        #expect(try chat.keptMessages(saved) == ["a question on a full disk", "answer 1"])
    }

    @Test(.enabled(if: ChatBinary.runsAsNobody, "the built chat is in a directory the user nobody cannot reach"))
    func anotherUsersHistoryIsOneLineAndTheAnswer() async throws {
        let server = try answers()
        defer { server.stop() }
        var chat = ChatBinary()
        #expect(try await chat.run(["--base-url", server.baseURL, "root's question"]).status == 0)
        // The directory becomes nobody's; the history in it stays root's, 0600.
        chat.environment["TMPDIR"] = chat.temporaryDirectory
        try FileManager.default.createDirectory(atPath: chat.temporaryDirectory, withIntermediateDirectories: true)
        for path in [chat.home, chat.home + "/data", chat.home + "/data/chat", chat.temporaryDirectory] {
            #expect(chown(path, 65534, 65534) == 0)
        }
        let run = try await chat.runAsNobody(["--base-url", server.baseURL, "nobody's question"])
        #expect(run.status == 0)
        #expect(run.stdout == "answer 1\n")
        let kept = try #require(chat.keptFiles().first)
        #expect(
            run.stderr
                == "chat: warning: history: 2 messages not stored (cannot open \(chat.historyPath): unable to open "
                + "database file (Permission denied)); the conversation is kept in \(kept) instead (/load it in "
                + "chat -i to go on)\n")
        let list = try await chat.runAsNobody(["--list"])
        #expect(list.status == 1)
        #expect(ChatBinary.lines(list.stderr).count == 1)
    }

    @Test(.enabled(if: ChatBinary.runsAsNobody, "the built chat is in a directory the user nobody cannot reach"))
    func aDataDirectoryThatIsNotThisUsersIsOneLineAndTheAnswer() async throws {
        let server = try answers()
        defer { server.stop() }
        var chat = ChatBinary()
        chat.environment["TMPDIR"] = chat.temporaryDirectory
        try FileManager.default.createDirectory(atPath: chat.home + "/data/chat", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: chat.temporaryDirectory, withIntermediateDirectories: true)
        for path in [chat.home, chat.temporaryDirectory] { #expect(chown(path, 65534, 65534) == 0) }
        // data/ and data/chat stay root's, 0755: nobody can neither write them nor make them private.
        let run = try await chat.runAsNobody(["--base-url", server.baseURL, "a question"])
        #expect(run.status == 0)
        #expect(run.stdout == "answer 0\n")
        #expect(ChatBinary.lines(run.stderr).count == 1)
        #expect(
            run.stderr.hasPrefix(
                "chat: warning: history: 2 messages not stored (cannot make \(chat.home)/data/chat private (this "
                    + "user's, mode 0700): Operation not permitted); the conversation is kept in "))
    }
}

extension ChatBinary {
    /// Whether the user nobody can run the built chat: setpriv is there, and every directory
    /// above the binary lets others through.
    static var runsAsNobody: Bool {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return false }
        var directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        while directory.path != "/" {
            var info = stat()
            guard stat(directory.path, &info) == 0, info.st_mode & S_IXOTH != 0 else { return false }
            directory = directory.deletingLastPathComponent()
        }
        return true
    }

    /// Runs chat as the user nobody (65534), through setpriv.
    func runAsNobody(_ arguments: [String]) async throws -> Result {
        let running = try start(
            ["--reuid=65534", "--regid=65534", "--clear-groups", ChatBinary.path] + arguments,
            executable: "/usr/bin/setpriv")
        return await running.wait(timeout: 20)
    }
}
