import ChatDomain
import ChatTestSupport
import Foundation
import Synchronization
import Testing

@testable import ChatHistory

/// Everything the workers sent and what chat said back, gathered from all of them.
private final class Tally: Sendable {
    private struct State {
        var questions: [String] = []
        var problems: [String] = []
        var runs = 0
    }

    private let state = Mutex(State())

    func sent(_ questions: [String]) { state.withLock { $0.questions += questions } }

    func ran(_ result: ChatBinary.Result, _ what: String) {
        state.withLock { state in
            state.runs += 1
            if result.status != 0 || !result.stderr.isEmpty {
                state.problems.append("\(what): status \(result.status), stderr \(result.stderr.debugDescription)")
            }
        }
    }

    var questions: [String] { state.withLock { $0.questions } }
    var problems: [String] { state.withLock { $0.problems } }
    var runs: Int { state.withLock { $0.runs } }
}

/// Several `chat` processes on one history at once, as a person with a few terminals and
/// scripts has them: 8 at a time, REPLs and one-shots mixed, for `CHAT_CONCURRENCY_SECONDS`
/// (10 in CI; 60 by hand). None may lose a message, corrupt the database or print a warning.
@Suite(.timeLimit(.minutes(5)))
struct ConcurrentHistoryTests {
    static let seconds = Double(ProcessInfo.processInfo.environment["CHAT_CONCURRENCY_SECONDS"] ?? "") ?? 10

    /// Answers `answer to <the last question>`, in a few pieces; every fifth answer takes more
    /// than a second, so its checkpoints are written while the others write.
    private func server() throws -> LoopbackServer {
        try LoopbackServer { request, index in
            let question = Self.lastQuestion(request) ?? "?"
            let pieces = ["answer ", "to ", question]
            let slow = index.isMultiple(of: 5)
            return ServerStep.sse(
                pieces.map(ServerStep.chatChunk) + [ServerStep.finishChunk()], pause: slow ? 0.4 : 0.005)
        }
    }

    private static func lastQuestion(_ request: RecordedRequest) -> String? {
        guard let json = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any],
            let messages = json["messages"] as? [[String: Any]]
        else { return nil }
        return messages.last { $0["role"] as? String == "user" }?["content"] as? String
    }

    @Test func eightProcessesAtOnceLoseNothingCorruptNothingAndSayNothing() async throws {
        let server = try server()
        defer { server.stop() }
        var binary = ChatBinary()
        binary.environment["TMPDIR"] = binary.home
        let chat = binary
        let tally = Tally()
        let deadline = ContinuousClock.now + .seconds(Self.seconds)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    // At least one round each: a worker that starts after the deadline (the test
                    // pool busy with other tests) still runs one, at once with the others.
                    var round = 0
                    repeat {
                        round += 1
                        if worker.isMultiple(of: 2) {
                            await Self.oneShots(chat, server, worker: worker, round: round, tally: tally)
                        } else {
                            await Self.repl(chat, server, worker: worker, round: round, tally: tally)
                        }
                    } while ContinuousClock.now < deadline
                }
            }
        }
        #expect(tally.problems == [])

        // Every question and its answer, stored once each, whole; the database whole.
        let db = try SQLiteConnection(path: chat.home + "/data/chat/history.sqlite")
        let rows = try db.rows("SELECT role, content, state FROM message") { row throws(StorageError) in
            (try row.column(0, as: String.self), try row.column(1, as: String.self), try row.column(2, as: String.self))
        }
        let questions = tally.questions
        #expect(questions.count > 8)
        #expect(rows.filter { $0.0 == "user" }.map(\.1).sorted() == questions.sorted())
        #expect(rows.filter { $0.0 == "assistant" }.map(\.1).sorted() == questions.map { "answer to " + $0 }.sorted())
        #expect(rows.allSatisfy { $0.2 == "complete" })
        #expect(
            try db.firstRow("PRAGMA integrity_check") { row throws(StorageError) in try row.column(0, as: String.self) }
                == "ok")
        #expect(chat.keptFiles().isEmpty)
        print("concurrent history: \(tally.runs) runs, \(questions.count) questions in \(Self.seconds) s")
    }

    /// Three one-shots: a new conversation, one continued with `-c`, and another new one.
    private static func oneShots(
        _ chat: ChatBinary, _ server: LoopbackServer, worker: Int, round: Int, tally: Tally
    ) async {
        for (step, flags) in [[], ["-c"], []].enumerated() {
            let question = "worker \(worker) round \(round) one-shot \(step)"
            tally.sent([question])
            guard let result = try? await chat.run(["--base-url", server.baseURL] + flags + [question], timeout: 60)
            else { return }
            tally.ran(result, question)
        }
    }

    /// A REPL fed five lines through a pipe.
    private static func repl(
        _ chat: ChatBinary, _ server: LoopbackServer, worker: Int, round: Int, tally: Tally
    ) async {
        let questions = (0..<5).map { "worker \(worker) round \(round) line \($0)" }
        tally.sent(questions)
        guard
            let result = try? await chat.run(
                ["-i", "--base-url", server.baseURL], input: questions.joined(separator: "\n") + "\n", timeout: 60)
        else { return }
        tally.ran(result, "REPL \(worker).\(round)")
    }
}
