import ChatTestSupport
import Foundation
import Testing

/// History that stays tidy, end to end: failed one-shots stored but left out of the lists, `-c`
/// skipping them, `-n`, `--all`, search phrases and snippets, several ids for `--delete`, and
/// stray words as usage errors.
@Suite(.timeLimit(.minutes(2)))
struct TidyHistoryCommandTests {
    /// A server that answers 401 to request `failing` and "answer N" to the others.
    private func server(failing: Set<Int> = []) throws -> LoopbackServer {
        try LoopbackServer { _, index in
            if failing.contains(index) {
                return ServerStep.json(status: 401, #"{"error": {"message": "Incorrect API key provided"}}"#)
            }
            return ServerStep.sse([ServerStep.chatChunk("answer \(index)"), ServerStep.finishChunk()])
        }
    }

    private func lines(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init)
    }

    @Test func aFailedOneShotIsStoredButLeftOutOfTheListAndContinue() async throws {
        let server = try server(failing: [1, 2])
        defer { server.stop() }
        let chat = ChatBinary()
        let flags = ["--base-url", server.baseURL, "--retries", "0"]
        #expect(try await chat.run(flags + ["a question that got its answer"]).status == 0)
        let failed = try await chat.run(flags + ["a question refused with 401"])
        #expect(failed.status == 1)
        let refused = try await chat.run(["--base-url", "http://127.0.0.1:9/v1", "--retries", "0", "refused at once"])
        #expect(refused.status == 1)
        _ = try await chat.run(flags + ["another 401"])

        let list = try await chat.run(["--list"])
        #expect(list.status == 0)
        #expect(lines(list.stdout).count == 1)
        #expect(list.stdout.contains("1 turn  a question that got its answer"))
        #expect(list.stderr == "chat: (3 conversations with no answer left out; --all shows them)\n")

        let all = try await chat.run(["--list", "--all"])
        #expect(lines(all.stdout).count == 4)
        #expect(all.stdout.contains("0 turns  a question refused with 401"))
        #expect(all.stdout.contains("0 turns  refused at once"))
        #expect(all.stderr == "")

        // Nothing typed is lost: the failed message is there, marked.
        let id = try #require(lines(all.stdout).first { $0.contains("refused at once") }?.prefix(8))
        let show = try await chat.run(["--show", String(id)])
        #expect(show.stdout == "you: (failed)\nrefused at once\n\n")

        // -c continues the most recent conversation that has an answer.
        let continued = try await chat.run(flags + ["-c", "and then?"])
        #expect(continued.status == 0, "\(continued.stderr)")
        let body = try #require(
            try JSONSerialization.jsonObject(with: Data(try server.request(3).body)) as? [String: Any])
        let contents = (body["messages"] as? [[String: Any]])?.compactMap { $0["content"] as? String }
        #expect(contents == ["a question that got its answer", "answer 0", "and then?"])
    }

    @Test func nLimitsTheListingAndSaysWhatItLeftOut() async throws {
        let server = try server()
        defer { server.stop() }
        let chat = ChatBinary()
        for word in ["one", "two", "three"] { _ = try await chat.run(["--base-url", server.baseURL, word]) }

        let two = try await chat.run(["-n", "2", "--list"])
        #expect(lines(two.stdout).map { $0.hasSuffix("three") || $0.hasSuffix("two") } == [true, true])
        #expect(two.stderr == "chat: (showing 2 of 3; -n 0 shows all)\n")
        // On a pipe every conversation is listed unless -n says otherwise.
        #expect(lines(try await chat.run(["--list"]).stdout).count == 3)
        #expect(lines(try await chat.run(["-n", "0", "--list"]).stdout).count == 3)
        #expect(lines(try await chat.run(["-n", "1", "--search", "t"]).stdout).count <= 1)
    }

    @Test func theWordsAfterSearchAreTheTextAndEachResultShowsWhereItMatched() async throws {
        let server = try LoopbackServer { _, index in
            let answers = ["Use a list comprehension: squares = [x * x for x in xs].", "Knead the dough."]
            return ServerStep.sse([ServerStep.chatChunk(answers[index % 2]), ServerStep.finishChunk()])
        }
        defer { server.stop() }
        let chat = ChatBinary(environment: ["TERM": "xterm-256color"])
        _ = try await chat.run(["--base-url", server.baseURL, "squares in python"])
        _ = try await chat.run(["--base-url", server.baseURL, "bread, and a list of what to buy"])

        // "list comprehensions" used to search "list" alone and send "comprehensions" nowhere.
        let found = try await chat.run(["--search", "list", "comprehension"])
        #expect(found.status == 0)
        #expect(lines(found.stdout).count == 1)
        #expect(found.stdout.contains("squares in python  Use a list comprehension: squares"))
        #expect(!found.stdout.contains("\u{1B}"))
        let both = try await chat.run(["--search", "list"])
        #expect(lines(both.stdout).count == 2)
    }

    @Test func deleteTakesSeveralIdsAndRefusesAllWhenOneIsUnknown() async throws {
        let server = try server()
        defer { server.stop() }
        let chat = ChatBinary()
        for word in ["alpha", "beta", "gamma"] { _ = try await chat.run(["--base-url", server.baseURL, word]) }
        let ids = try await chat.run(["--list"]).stdout.split(separator: "\n").map { String($0.prefix(8)) }
        #expect(ids.count == 3)

        let unknown = try await chat.run(["--delete", ids[0], "zzzzzzzz"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "chat: error: no conversation zzzzzzzz (chat --list shows them)\n")
        #expect(lines(try await chat.run(["--list"]).stdout).count == 3)

        let deleted = try await chat.run(["--delete", ids[0], String(ids[1].prefix(5))])
        #expect(deleted.status == 0)
        #expect(deleted.stderr == "chat: deleted \(ids[0]) (gamma)\nchat: deleted \(ids[1]) (beta)\n")
        #expect(try await chat.run(["--list"]).stdout.hasPrefix(ids[2]))
    }

    @Test func aStrayWordAfterAHistoryOptionIsAUsageError() async throws {
        let chat = ChatBinary()
        for (arguments, message) in [
            (["--list", "everything"], #"unexpected "everything" after --list"#),
            (["--show", "abc", "def"], #"unexpected "def" after --show ID"#),
            (["--export", "abc", "json"], #"unexpected "json" after --export ID"#),
        ] {
            let result = try await chat.run(arguments)
            #expect(result.status == 2)
            #expect(result.stderr == "chat: error: \(message)\n")
            #expect(result.stdout == "")
        }
    }
}

/// What the history commands do on a terminal: a search's snippet on a line of its own, and
/// `--delete` of several ids asking first.
@Suite(.enabled(if: TmuxSession.isAvailable, "needs tmux (apt-get install tmux)"), .timeLimit(.minutes(1)))
struct TidyHistoryTerminalTests {
    @Test func searchShowsTheSnippetUnderTheLineAndDeleteOfSeveralAsks() async throws {
        let server = try LoopbackServer { _, index in
            ServerStep.sse([ServerStep.chatChunk("penguins huddle \(index)"), ServerStep.finishChunk()])
        }
        defer { server.stop() }
        let chat = ChatBinary()
        _ = try await chat.run(["--base-url", server.baseURL, "first"])
        _ = try await chat.run(["--base-url", server.baseURL, "second"])
        let environment = chat.environment.merging(["TERM": "xterm"]) { $1 }

        let search = try TmuxSession(
            program: ChatBinary.path, arguments: ["--search", "huddle"], environment: environment)
        defer { search.kill() }
        #expect(await search.exitStatus() == 0)
        let screen = search.screen()
        #expect(screen.contains("1 turn  second\n          penguins huddle 1"), "screen:\n\(screen)")

        let ids = try await chat.run(["--list"]).stdout.split(separator: "\n").map { String($0.prefix(8)) }
        let refuse = try TmuxSession(program: ChatBinary.path, arguments: ["--delete"] + ids, environment: environment)
        defer { refuse.kill() }
        #expect(await refuse.waitForScreen { $0.contains("? [y/N]") })
        #expect(refuse.screen().contains("delete 2 conversations: \(ids[0]) (second), \(ids[1]) (first)?"))
        try refuse.send("Enter")
        #expect(await refuse.exitStatus() == 1)
        #expect(refuse.screen().contains("chat: nothing deleted"))
        #expect(try await chat.run(["--list"]).stdout.split(separator: "\n").count == 2)

        let accept = try TmuxSession(program: ChatBinary.path, arguments: ["--delete"] + ids, environment: environment)
        defer { accept.kill() }
        #expect(await accept.waitForScreen { $0.contains("? [y/N]") })
        try accept.type("y")
        try accept.send("Enter")
        #expect(await accept.exitStatus() == 0)
        #expect(try await chat.run(["--list"]).stdout == "")
    }
}
