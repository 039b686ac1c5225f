import ChatTestSupport
import Foundation
import Testing

/// The messages request `index` carried, as "role: content".
private func carried(_ server: LoopbackServer, _ index: Int) throws -> [String] {
    let json = try #require(
        try JSONSerialization.jsonObject(with: Data(try server.request(index).body)) as? [String: Any])
    return (json["messages"] as? [[String: Any]] ?? []).map {
        "\($0["role"] as? String ?? ""): \($0["content"] as? String ?? "")"
    }
}

/// A server whose answer to its `n`th request (from 0) is `answer n`.
private func numbered() throws -> LoopbackServer {
    try LoopbackServer { _, index in
        ServerStep.sse([ServerStep.chatChunk("answer \(index)"), ServerStep.finishChunk()])
    }
}

/// Branches end to end: `/retry` keeps the answer it replaces, `/answers` steps back to it,
/// `/fork` goes on in a new conversation that says where it came from, `/edit N` asks a
/// question again; `--show`, `--list` and `--export` show the branch shown.
@Suite(.timeLimit(.minutes(2)))
struct BranchCommandTests {
    @Test func retryKeepsTheAnswerItReplacesAndAnswersGoesBackToIt() async throws {
        let server = try numbered()
        defer { server.stop() }
        let chat = ChatBinary()
        let run = try await chat.run(
            ["-i", "--base-url", server.baseURL],
            input: "first question\n/retry\n/answers\n/answers 1\nsecond question\n/fork 1\nthird question\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout
                == "answer 0\nanswer 1\n  1  answer 0\n* 2  answer 1\nanswer 0\nanswer 2\nanswer 3\n")
        let fork = try await chat.id(of: "branched from")
        let original = try #require(try await chat.listed().first { !$0.contains("branched from") }?.prefix(8))
            .description
        #expect(
            run.stderr
                == "(* is the one shown; /answers N goes on from answer N)\nanswer 1 of 2; the conversation goes on from "
                + "it\na new conversation with question 1 of \(original) and its answer; it is stored when you send "
                + "the next message (/resume \(original) goes back)\n")
        // After `/answers 1` the conversation goes on from the first answer.
        #expect(
            try carried(server, 2) == ["user: first question", "assistant: answer 0", "user: second question"])
        // The fork carries question 1 and its answer, not the second question.
        #expect(try carried(server, 3) == ["user: first question", "assistant: answer 0", "user: third question"])

        #expect(original != fork)
        let list = try await chat.run(["--list"])
        #expect(list.stdout.contains("first question  (branched from \(original) at turn 1)"))
        let shown = try await chat.run(["--show", original])
        #expect(
            shown.stdout
                == "you:\nfirst question\n\nassistant:\nanswer 0\n\nyou:\nsecond question\n\nassistant:\nanswer 2\n\n")
        let forked = try await chat.run(["--show", fork])
        #expect(forked.stdout.hasPrefix("branched from \(original) at turn 1\n\nyou:\nfirst question\n"))
        let exported = try await chat.run(["--export", fork])
        #expect(exported.stdout.contains("Branched from \(original) at turn 1.\n"))
        // The replaced answer is still in the history.
        #expect(try await chat.run(["--search", "answer 1"]).stdout.contains(original))
    }

    @Test(.enabled(if: TmuxSession.isAvailable, "needs tmux (apt-get install tmux)"))
    func editNAsksAQuestionAgainAndTheTurnsAfterItStayInTheHistory() async throws {
        let server = try numbered()
        defer { server.stop() }
        let chat = ChatBinary()
        let session = try TmuxSession(
            program: ChatBinary.path, arguments: ["--base-url", server.baseURL],
            environment: chat.environment.merging(["TERM": "xterm", "EDITOR": "sed -i s/first/FIRST/"]) { $1 })
        defer { session.kill() }
        #expect(await session.waitForScreen { $0.contains("0 turns") })
        for (question, answer) in [("first question", "answer 0"), ("second question", "answer 1")] {
            try session.type(question)
            try session.send("Enter")
            #expect(await session.waitForScreen { $0.contains(answer) })
        }
        try session.type("/history")
        try session.send("Enter")
        #expect(await session.waitForScreen { $0.contains("you [2]: second question") })
        try session.type("/edit 1")
        try session.send("Enter")
        #expect(await session.waitForScreen { $0.contains("answer 2") })
        try session.send("C-d")
        #expect(await session.exitStatus() == 0, "screen:\n\(session.screen())")

        #expect(try carried(server, 2) == ["user: FIRST question"])
        let id = try await chat.id(of: "1 turn")
        #expect(try await chat.run(["--show", id]).stdout == "you:\nFIRST question\n\nassistant:\nanswer 2\n\n")
        // The turns after it left this branch, not the history.
        #expect(try await chat.run(["--search", "second"]).stdout.contains(id))
    }
}
