import ChatTestSupport
import Foundation
import Testing

/// One message of a request as the server received it.
private struct Sent: Equatable, CustomStringConvertible {
    var role: String
    var content: String

    var description: String { "\(role): \(content.debugDescription)" }
}

/// The messages `request` carried.
private func sent(_ request: RecordedRequest) throws -> [Sent] {
    let json = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
    let list = try #require(json["messages"] as? [[String: Any]])
    return list.map { Sent(role: $0["role"] as? String ?? "", content: $0["content"] as? String ?? "") }
}

private func user(_ text: String) -> Sent { Sent(role: "user", content: text) }
private func assistant(_ text: String) -> Sent { Sent(role: "assistant", content: text) }

/// A server whose answer to its `n`th request (from 0) is `answer n`, in two pieces.
private func numberedAnswers() throws -> LoopbackServer {
    try LoopbackServer { _, index in
        ServerStep.sse([ServerStep.chatChunk("answer "), ServerStep.chatChunk("\(index)"), ServerStep.finishChunk()])
    }
}

/// A server whose first answer is 200 pieces 50 ms apart (10 s in all); later ones are quick.
private func slowFirstAnswer() throws -> LoopbackServer {
    try LoopbackServer { _, index in
        guard index == 0 else {
            return ServerStep.sse([ServerStep.chatChunk("answer \(index)"), ServerStep.finishChunk()])
        }
        // Fifty seconds of pieces: the kill comes long before the end, however busy the machine.
        return ServerStep.sse((1...1000).map { ServerStep.chatChunk("piece\($0) ") }, pause: 0.05)
    }
}

extension ChatBinary {
    var dataDirectory: String { home + "/data/chat" }

    /// `--list`'s lines.
    func listed() async throws -> [String] {
        let result = try await run(["--list"])
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// The id of the listed conversation whose line contains `text`.
    func id(of text: String) async throws -> String {
        let line = try #require(try await listed().first { $0.contains(text) }, "no conversation \(text)")
        return String(line.prefix { $0 != " " })
    }

    func exists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: dataDirectory + "/" + name)
    }

    /// Permission bits of `path`, or nil if it does not exist.
    func mode(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o777
    }
}

/// The history end to end: the built binary against the loopback server, with a data directory
/// of its own per `ChatBinary`.
@Suite(.timeLimit(.minutes(2)))
struct HistoryCommandTests {
    @Test func aOneShotThenContinueSendsTheEarlierTurnsWithTheSameModelAndSystemPrompt() async throws {
        let server = try numberedAnswers()
        defer { server.stop() }
        let chat = ChatBinary()
        let first = try await chat.run([
            "--base-url", server.baseURL, "-m", "special-model", "-s", "be terse", "first question",
        ])
        #expect(first.status == 0)
        #expect(first.stdout == "answer 0\n")

        let second = try await chat.run(["--base-url", server.baseURL, "-c", "second question"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout == "answer 1\n")
        #expect(
            try sent((try server.request(1))) == [
                Sent(role: "system", content: "be terse"), user("first question"), assistant("answer 0"),
                user("second question"),
            ])
        let body = try #require(
            try JSONSerialization.jsonObject(with: Data((try server.request(1)).body)) as? [String: Any])
        #expect(body["model"] as? String == "special-model")

        let list = try await chat.listed()
        #expect(list.count == 1)
        #expect(list.first?.contains("2 turns") == true)
        #expect(list.first?.contains("special-model") == true)
    }

    /// The conversation-switch rule: a continued conversation keeps its stored settings unless this
    /// run's options give others.
    @Test func continueKeepsTheStoredSamplingSettingsUnlessThisRunGivesOthers() async throws {
        let server = try numberedAnswers()
        defer { server.stop() }
        let chat = ChatBinary()
        func body(_ index: Int) throws -> [String: Any] {
            try #require(
                try JSONSerialization.jsonObject(with: Data((try server.request(index)).body)) as? [String: Any])
        }
        let first = try await chat.run([
            "--base-url", server.baseURL, "--temperature", "0.25", "--top-p", "0.5", "--seed", "3", "-m", "kept-model",
            "first",
        ])
        #expect(first.status == 0, "\(first.stderr)")

        let second = try await chat.run(["--base-url", server.baseURL, "-c", "second"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try body(1)["temperature"] as? Double == 0.25)
        #expect(try body(1)["top_p"] as? Double == 0.5)
        #expect(try body(1)["seed"] as? Int == 3)
        #expect(try body(1)["model"] as? String == "kept-model")

        let third = try await chat.run(["--base-url", server.baseURL, "--temperature", "1.5", "-c", "third"])
        #expect(third.status == 0, "\(third.stderr)")
        #expect(try body(2)["temperature"] as? Double == 1.5)
        #expect(try body(2)["top_p"] as? Double == 0.5)
        #expect(try body(2)["model"] as? String == "kept-model")
    }

    @Test func continueTakesTheMostRecentlyUsedAndConversationTakesAnyByPrefix() async throws {
        let server = try numberedAnswers()
        defer { server.stop() }
        let chat = ChatBinary()
        _ = try await chat.run(["--base-url", server.baseURL, "alpha question"])
        _ = try await chat.run(["--base-url", server.baseURL, "beta question"])
        let alpha = try await chat.id(of: "alpha question")
        #expect(alpha.count == 8)

        _ = try await chat.run(["--base-url", server.baseURL, "-c", "after beta"])
        #expect(
            try sent((try server.request(2))) == [user("beta question"), assistant("answer 1"), user("after beta")])

        let resumed = try await chat.run([
            "--base-url", server.baseURL, "--conversation", String(alpha.prefix(4)), "after alpha",
        ])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(
            try sent((try server.request(3))) == [user("alpha question"), assistant("answer 0"), user("after alpha")])

        // Alpha was created first but used last: -c takes it now.
        _ = try await chat.run(["--base-url", server.baseURL, "-c", "again"])
        #expect(
            try sent((try server.request(4))) == [
                user("alpha question"), assistant("answer 0"), user("after alpha"), assistant("answer 3"),
                user("again"),
            ])
        #expect(try await chat.listed().first?.hasPrefix(alpha) == true)

        let unknown = try await chat.run(["--base-url", server.baseURL, "--conversation", "zzzzzzzz", "hello"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("no conversation zzzzzzzz"))
        #expect(server.requests.count == 5)
    }

    @Test func aREPLSessionThenContinueCarriesBothTurns() async throws {
        let server = try numberedAnswers()
        defer { server.stop() }
        let chat = ChatBinary()
        let repl = try await chat.run(["--base-url", server.baseURL, "-i"], input: "a\nb\n")
        #expect(repl.status == 0, "\(repl.stderr)")
        #expect(repl.stdout.contains("answer 0") && repl.stdout.contains("answer 1"))

        let next = try await chat.run(["--base-url", server.baseURL, "-c", "c"])
        #expect(next.status == 0)
        #expect(
            try sent((try server.request(2))) == [
                user("a"), assistant("answer 0"), user("b"), assistant("answer 1"), user("c"),
            ])

        // -c -i continues it in the REPL.
        _ = try await chat.run(["--base-url", server.baseURL, "-c", "-i"], input: "d\n")
        #expect(try sent((try server.request(3))).count == 7)
        #expect(try await chat.listed().count == 1)
    }

    @Test func killDashNineMidAnswerKeepsTheQuestionAndTheCheckpointedAnswer() async throws {
        let server = try slowFirstAnswer()
        defer { server.stop() }
        let chat = ChatBinary()
        let running = try chat.start(["--base-url", server.baseURL, "tell me a long story"])
        #expect(await running.waitForOutput(containing: "piece1 "))
        try await Task.sleep(for: .milliseconds(200))
        running.stdout.drain()
        // Shown 1.5 s before the kill: a checkpoint (at least one a second) has stored it since.
        let early = running.stdout.text
        try await Task.sleep(for: .milliseconds(1500))
        running.signal(SIGKILL)
        let killed = await running.wait(timeout: 10)
        #expect(killed.status == 128 + SIGKILL)

        let next = try await chat.run(["--base-url", server.baseURL, "-c", "go on"])
        #expect(next.status == 0, "\(next.stderr)")
        let messages = try sent(try #require(server.requests.last))
        #expect(messages.map(\.role) == ["user", "assistant", "user"])
        #expect(messages.first?.content == "tell me a long story")
        let partial = messages.count == 3 ? messages[1].content : ""
        #expect(partial.hasPrefix(early), "stored \(partial.debugDescription), shown early \(early.debugDescription)")
        #expect(killed.stdout.hasPrefix(partial))
        #expect(!partial.contains("piece1000"))

        let show = try await chat.run(["--show", try await chat.id(of: "tell me a long story")])
        #expect(show.stdout.contains("assistant: (interrupted)\n" + partial + "\n"))
    }

    @Test func killDashNineDuringAStallKeepsTheTextFromBeforeIt() async throws {
        let server = try LoopbackServer { _, index in
            guard index == 0 else { return ServerStep.sse([ServerStep.chatChunk("resumed")]) }
            return [
                .head(status: 200, headers: [("Content-Type", "text/event-stream")], chunked: true),
                .text("data: \(ServerStep.chatChunk("before the stall"))\n\n"), .pause(20),
                .text("data: \(ServerStep.chatChunk(" after"))\n\n"), .end,
            ]
        }
        defer { server.stop() }
        let chat = ChatBinary()
        let running = try chat.start(["--base-url", server.baseURL, "question"])
        #expect(await running.waitForOutput(containing: "before the stall"))
        try await Task.sleep(for: .milliseconds(1800))
        running.signal(SIGKILL)
        #expect(await running.wait(timeout: 10).status == 128 + SIGKILL)

        _ = try await chat.run(["--base-url", server.baseURL, "-c", "go on"])
        let messages = try sent(try #require(server.requests.last))
        #expect(messages == [user("question"), assistant("before the stall"), user("go on")])
    }

    @Test func sigintOfAOneShotExits130AndKeepsThePartialAnswerMarkedInterrupted() async throws {
        let server = try slowFirstAnswer()
        defer { server.stop() }
        let chat = ChatBinary()
        let running = try chat.start(["--base-url", server.baseURL, "hi"])
        #expect(await running.waitForOutput(containing: "piece2 "))
        running.signal(SIGINT)
        let result = await running.wait(timeout: 15)
        #expect(result.status == 130)
        #expect(result.stdout.hasPrefix("piece1 piece2 "))

        let show = try await chat.run(["--show", try await chat.id(of: "hi")])
        #expect(show.status == 0)
        // Everything shown was stored, marked interrupted.
        #expect(show.stdout == "you:\nhi\n\nassistant: (interrupted)\n" + result.stdout + "\n")
    }

    @Test func eightOneShotsStartedAtOnceAreAllStoredWithoutLocking() async throws {
        let server = try numberedAnswers()
        defer { server.stop() }
        let chat = ChatBinary()
        // The first round finds no data directory: all eight create and migrate it at once.
        for round in 1...2 {
            #expect(round == 2 || !FileManager.default.fileExists(atPath: chat.dataDirectory))
            let processes = try (1...8).map {
                try chat.start(["--base-url", server.baseURL, "question \(round)-\($0)"])
            }
            for process in processes {
                let result = await process.wait(timeout: 60)
                #expect(result.status == 0, "\(result.stderr)")
                #expect(result.stderr == "")
                #expect(result.stdout.hasPrefix("answer "))
            }
        }
        let list = try await chat.run(["--list"])
        #expect(!list.stderr.contains("locked"))
        let lines = list.stdout.split(separator: "\n")
        #expect(lines.count == 16)
        for round in 1...2 {
            for index in 1...8 {
                #expect(lines.contains { $0.hasSuffix("question \(round)-\(index)") }, "question \(round)-\(index)")
            }
        }
    }

    @Test func searchShowExportAndDelete() async throws {
        let server = try LoopbackServer { _, index in
            ServerStep.sse([ServerStep.chatChunk(index == 0 ? "penguins swim fast" : "flour and water")])
        }
        defer { server.stop() }
        let chat = ChatBinary()
        _ = try await chat.run(["--base-url", server.baseURL, "tell me about penguins"])
        _ = try await chat.run(["--base-url", server.baseURL, "a bread recipe"])
        let penguins = try await chat.id(of: "tell me about penguins")
        let bread = try await chat.id(of: "a bread recipe")

        // Search: the question side, the answer side, nothing.
        let byQuestion = try await chat.run(["--search", "penguins"])
        #expect(byQuestion.status == 0)
        #expect(byQuestion.stdout.split(separator: "\n").map { String($0.prefix(8)) } == [penguins])
        #expect(byQuestion.stdout.contains("1 turn  tell me about penguins"))
        let byAnswer = try await chat.run(["--search", "flour"])
        #expect(byAnswer.stdout.split(separator: "\n").map { String($0.prefix(8)) } == [bread])
        let nothing = try await chat.run(["--search", "zebra"])
        #expect(nothing.status == 0)
        #expect(nothing.stdout == "")
        #expect(nothing.stderr == "chat: no conversation mentions \"zebra\"\n")

        // Show, by a prefix.
        let show = try await chat.run(["--show", String(penguins.prefix(4))])
        #expect(show.status == 0)
        #expect(show.stdout == "you:\ntell me about penguins\n\nassistant:\npenguins swim fast\n\n")

        // Export as JSON (the /save format) and Markdown (the default).
        let json = try await chat.run(["--export", penguins, "--format", "json"])
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["format"] as? String == "chat-conversation")
        #expect(object["model"] as? String == "gpt-4o-mini")
        let exported = try #require(object["messages"] as? [[String: Any]])
        #expect(exported.map { $0["role"] as? String } == ["user", "assistant"])
        #expect(exported.map { $0["content"] as? String } == ["tell me about penguins", "penguins swim fast"])
        let markdown = try await chat.run(["--export", penguins, "--format", "markdown"])
        #expect(markdown.status == 0)
        #expect(markdown.stdout.hasPrefix("# tell me about penguins\n"))
        #expect(markdown.stdout.contains("## You\n\ntell me about penguins\n"))
        #expect(markdown.stdout.contains("## Assistant\n\npenguins swim fast\n"))
        #expect(try await chat.run(["--export", penguins]).stdout == markdown.stdout)
        let badFormat = try await chat.run(["--export", penguins, "--format", "yaml"])
        #expect(badFormat.status == 2)

        // Delete; then it is gone everywhere.
        let delete = try await chat.run(["--delete", penguins])
        #expect(delete.status == 0)
        #expect(delete.stderr == "chat: deleted \(penguins) (tell me about penguins)\n")
        let gone = try await chat.run(["--show", penguins])
        #expect(gone.status == 2)
        #expect(gone.stdout == "")
        #expect(gone.stderr == "chat: error: no conversation \(penguins) (chat --list shows them)\n")
        #expect(try await chat.run(["--search", "penguins"]).stdout == "")
        #expect(try await chat.listed().map { String($0.prefix(8)) } == [bread])
        #expect(try await chat.run(["--delete", penguins]).status == 2)
    }

    @Test func aConversationLoadedInTheREPLIsStoredWholeAndContinues() async throws {
        let server = try numberedAnswers()
        defer { server.stop() }
        let chat = ChatBinary()
        _ = try await chat.run(["--base-url", server.baseURL, "original question"])
        let original = try await chat.id(of: "original question")
        let file = chat.home + "/saved.json"
        let export = try await chat.run(["--export", original, "--format", "json"])
        try export.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        _ = try await chat.run(["--delete", original])

        let repl = try await chat.run(["--base-url", server.baseURL, "-i"], input: "/load \(file)\nfollow-up\n")
        #expect(repl.status == 0, "\(repl.stderr)")
        #expect(
            try sent((try server.request(1))) == [user("original question"), assistant("answer 0"), user("follow-up")])

        _ = try await chat.run(["--base-url", server.baseURL, "-c", "and more"])
        #expect(
            try sent((try server.request(2))) == [
                user("original question"), assistant("answer 0"), user("follow-up"), assistant("answer 1"),
                user("and more"),
            ])
        #expect(try await chat.listed().count == 1)
    }

    @Test func maxContextTokensLeavesOldTurnsOutOfTheRequestNeverOutOfStorage() async throws {
        let server = try numberedAnswers()
        defer { server.stop() }
        let chat = ChatBinary()
        // With auto_compact false: older turns are left out rather than summarised.
        let config = try chat.writeConfig(#"{"max_context_tokens": 60, "auto_compact": false}"#)
        // About 29 estimated tokens each: two questions no longer fit.
        func question(_ n: Int) -> String { "question \(n) " + String(repeating: "x", count: 89) }

        _ = try await chat.run(["--config", config, "--base-url", server.baseURL, question(1)])
        _ = try await chat.run(["--config", config, "--base-url", server.baseURL, "-c", question(2)])
        #expect(try sent((try server.request(1))) == [user(question(2))])

        let repl = try await chat.run(
            ["--config", config, "--base-url", server.baseURL, "-c", "-i"], input: question(3) + "\n")
        #expect(try sent((try server.request(2))) == [user(question(3))])
        #expect(repl.stderr.contains("(4 older messages were left out of the request to fit max_context_tokens)"))

        // Everything is still stored.
        let id = try await chat.id(of: "question 1")
        let show = try await chat.run(["--show", id])
        for n in 1...3 { #expect(show.stdout.contains(question(n))) }
        #expect(show.stdout.contains("answer 2"))

        // A conversation loaded from a file is held to the same limit.
        let file = chat.home + "/long.json"
        try await chat.run(["--export", id, "--format", "json"]).stdout.write(
            toFile: file, atomically: true, encoding: .utf8)
        let loaded = try await chat.run(
            ["--config", config, "--base-url", server.baseURL, "-i"], input: "/load \(file)\n" + question(4) + "\n")
        #expect(try sent((try server.request(3))) == [user(question(4))])
        #expect(loaded.stderr.contains("(6 older messages were left out of the request to fit max_context_tokens)"))
    }

    @Test func helpListsTheHistoryOptions() async throws {
        let help = try await ChatBinary().run(["--help"])
        for option in [
            "--continue", "--conversation <ID>", "--no-history", "--list", "--search <TEXT>", "--show <ID>",
            "--export <ID>", "--format <FORMAT>", "--delete <ID>", "XDG_DATA_HOME",
        ] {
            #expect(help.stdout.contains(option), "\(option)")
        }
    }

    @Test func noHistoryStoresNothing() async throws {
        let server = try numberedAnswers()
        defer { server.stop() }
        let chat = ChatBinary()
        let database = chat.dataDirectory + "/history.sqlite"

        let oneShot = try await chat.run(["--no-history", "--base-url", server.baseURL, "secret one"])
        #expect(oneShot.status == 0)
        #expect(oneShot.stderr == "")
        let repl = try await chat.run(["--no-history", "--base-url", server.baseURL, "-i"], input: "secret two\n")
        #expect(repl.status == 0)
        let config = try chat.writeConfig(#"{"history": false}"#)
        let configured = try await chat.run(["--config", config, "--base-url", server.baseURL, "secret three"])
        #expect(configured.status == 0)
        #expect(server.requests.count == 3)
        #expect(!FileManager.default.fileExists(atPath: database))
        #expect(!chat.exists("input_history"))

        let cannot = try await chat.run(["--no-history", "-c", "--base-url", server.baseURL, "more"])
        #expect(cannot.status == 2)
        #expect(cannot.stderr.contains("history is off"))

        // The same run with history on does store, where the checks above looked.
        _ = try await chat.run(["--base-url", server.baseURL, "stored"])
        #expect(FileManager.default.fileExists(atPath: database))
        let list = try await chat.listed()
        #expect(list.count == 1)
        #expect(list.first?.hasSuffix("stored") == true)
    }

    @Test func theDataDirectoryIsPrivate() async throws {
        let server = try numberedAnswers()
        defer { server.stop() }
        let chat = ChatBinary()
        // A directory someone made readable by all is tightened.
        try FileManager.default.createDirectory(
            atPath: chat.dataDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        #expect(chat.mode(chat.dataDirectory) == 0o755)

        _ = try await chat.run(["--base-url", server.baseURL, "private matters"])

        #expect(chat.mode(chat.dataDirectory) == 0o700)
        #expect(chat.mode(chat.dataDirectory + "/history.sqlite") == 0o600)
        #expect(chat.mode(chat.dataDirectory + "/history.lock") == 0o600)
        let files = try FileManager.default.contentsOfDirectory(atPath: chat.dataDirectory)
        #expect(files.contains("history.sqlite"))
        for file in files {
            #expect(chat.mode(chat.dataDirectory + "/" + file) == 0o600, "\(file)")
        }
    }

    @Test func listIsPlainWhenPiped() async throws {
        let server = try numberedAnswers()
        defer { server.stop() }
        let chat = ChatBinary(environment: ["TERM": "xterm-256color"])
        _ = try await chat.run(["--base-url", server.baseURL, "one"])
        _ = try await chat.run(["--base-url", server.baseURL, "two"])
        let list = try await chat.run(["--list"])
        #expect(list.status == 0)
        #expect(list.stdout.split(separator: "\n").count == 2)
        #expect(!list.stdout.contains("\u{1B}"))
        let show = try await chat.run(["--show", try await chat.id(of: "one")])
        #expect(!show.stdout.contains("\u{1B}"))
        #expect(show.stdout.hasPrefix("you:\none\n"))
    }

    @Test func anEmptyHistorySaysSo() async throws {
        let list = try await ChatBinary().run(["--list"])
        #expect(list.status == 0)
        #expect(list.stdout == "")
        #expect(list.stderr == "chat: no stored conversations yet\n")
    }
}

/// Input history (Up-arrow recall across runs) needs a terminal.
@Suite(.enabled(if: TmuxSession.isAvailable, "needs tmux (apt-get install tmux)"), .timeLimit(.minutes(1)))
struct InputHistoryTerminalTests {
    /// Types one line into the REPL on a terminal, waits for the answer, and leaves with Ctrl-D.
    private func converse(_ chat: ChatBinary, _ server: LoopbackServer, _ flags: [String]) async throws {
        let session = try TmuxSession(
            program: ChatBinary.path, arguments: flags + ["--base-url", server.baseURL],
            environment: chat.environment.merging(["TERM": "xterm"]) { $1 })
        defer { session.kill() }
        #expect(await session.waitForScreen { $0.contains("0 turns") })
        try session.type("remember this line")
        try session.send("Enter")
        #expect(await session.waitForScreen { $0.contains("answer") })
        try session.send("C-d")
        #expect(await session.exitStatus() == 0, "screen:\n\(session.screen())")
    }

    @Test func noHistoryWritesNoInputHistoryAndHistoryKeepsItPrivate() async throws {
        let server = try numberedAnswers()
        defer { server.stop() }

        let off = ChatBinary()
        try await converse(off, server, ["--no-history"])
        #expect(!off.exists("input_history"))
        #expect(!off.exists("history.sqlite"))

        let on = ChatBinary()
        try await converse(on, server, [])
        #expect(on.mode(on.dataDirectory + "/input_history") == 0o600)
        let lines = try String(contentsOfFile: on.dataDirectory + "/input_history", encoding: .utf8)
        #expect(lines.contains("remember"))
        #expect(try await on.listed().count == 1)
    }

    /// `/exit` right after other lines leaves the whole input history written: the write is waited
    /// for, not cut short by the exit (it once left a few lines of a thousand, or none).
    @Test func exitKeepsTheWholeInputHistory() async throws {
        let chat = ChatBinary()
        try FileManager.default.createDirectory(atPath: chat.dataDirectory, withIntermediateDirectories: true)
        // libedit's history file: a header line, then one line per entry (it keeps 1,000).
        let earlier = (1...1000).map { "earlier-line-\($0)" }
        try (["_HiStOrY_V2_"] + earlier).joined(separator: "\n").appending("\n")
            .write(toFile: chat.dataDirectory + "/input_history", atomically: true, encoding: .utf8)
        for round in 1...3 {
            let session = try TmuxSession(
                program: ChatBinary.path, arguments: ["--base-url", "http://127.0.0.1:9/v1"],
                environment: chat.environment.merging(["TERM": "xterm"]) { $1 })
            defer { session.kill() }
            #expect(await session.waitForScreen { $0.contains("0 turns") })
            try session.type("/exit")
            try session.send("Enter")
            #expect(await session.exitStatus() == 0, "screen:\n\(session.screen())")
            let lines = try String(contentsOfFile: chat.dataDirectory + "/input_history", encoding: .utf8)
                .split(separator: "\n")
            #expect(lines.count == 1001, "round \(round): \(lines.count) lines left")
            #expect(lines.count { $0.hasPrefix("earlier-line-") } >= 998, "round \(round)")
            #expect(lines.last.map(String.init) == "/exit", "round \(round)")
        }
    }
}
