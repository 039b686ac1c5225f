import ChatTestSupport
import Foundation
import Testing

/// What answers cost, through the built `chat` against a scripted server that reports usage as
/// OpenAI does (the model a dated snapshot): `--json`'s `cost_usd`, `--show`, a budget that
/// stops a piped REPL, and `--stats` from the history.
@Suite struct CostCommandTests {
    /// Each answer: 20,000 prompt tokens (10,000 of them cached) and 10,000 completion tokens,
    /// of `gpt-4o-mini-2024-07-18`: 10,000 × $0.15 + 10,000 × $0.075 + 10,000 × $0.60 per
    /// million = $0.00825.
    static let usage =
        #"{"id":"c","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini-2024-07-18","choices":[],"#
        + #""usage":{"prompt_tokens":20000,"completion_tokens":10000,"total_tokens":30000,"#
        + #""prompt_tokens_details":{"cached_tokens":10000}}}"#

    static func server() throws -> LoopbackServer {
        try LoopbackServer { _, _ in
            ServerStep.sse([ServerStep.chatChunk("Hello."), ServerStep.finishChunk(), usage])
        }
    }

    private func lines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    @Test func theUsageEventSaysWhatTheAnswerCostAndShowSaysItToo() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(["--base-url", server.baseURL, "-m", "gpt-4o-mini", "--json", "hi"])
        #expect(result.status == 0)
        let usage = try #require(lines(result.stdout).first { $0["type"] as? String == "usage" })
        #expect(abs((usage["cost_usd"] as? Double ?? 0) - 0.00825) < 1e-12)
        let id = try #require(lines(result.stdout).first?["conversation"] as? String)
        let shown = try await chat.run(["--show", id])
        #expect(shown.stdout.contains("assistant: $0.00825\nHello."), "\(shown.stdout)")

        // A model chat has no price for, named as such by the server too: null, never 0.
        let unknown = try LoopbackServer { _, _ in
            ServerStep.sse([
                ServerStep.chatChunk("Hi."), ServerStep.finishChunk(),
                Self.usage.replacingOccurrences(of: "gpt-4o-mini-2024-07-18", with: "house-model"),
            ])
        }
        defer { unknown.stop() }
        let other = try await chat.run(["--base-url", unknown.baseURL, "-m", "house-model", "--json", "hi"])
        let otherUsage = try #require(lines(other.stdout).first { $0["type"] as? String == "usage" })
        #expect(otherUsage["cost_usd"] is NSNull)
    }

    @Test func aPipedREPLPastItsBudgetSaysWhatWasSpentAndExits1() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(
            ["--base-url", server.baseURL, "-m", "gpt-4o-mini", "--max-cost", "0.005", "-i"],
            input: "one\ntwo\nthree\n")
        #expect(result.status == 1)
        #expect(server.requests.count == 1, "the second request is not sent")
        #expect(result.stdout == "Hello.\n")
        #expect(
            result.stderr
                == "chat: error: this run has spent $0.00825 of its $0.00500 budget: the request was not sent "
                + "(raise it with --max-cost, or max_cost in the config)\n")
    }

    @Test func aOneShotSendsItsOneRequestAndTheBudgetIsRead() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        // Nothing spent yet: the request goes, whatever it then costs.
        let result = try await chat.run([
            "--base-url", server.baseURL, "-m", "gpt-4o-mini", "--max-cost", "0.001", "hi",
        ])
        #expect(result.status == 0)
        #expect(result.stdout == "Hello.\n")
        let bad = try await chat.run(["--max-cost", "lots", "hi"])
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("chat: error: --max-cost"), "\(bad.stderr)")
    }

    @Test func statsAddsUpTheHistoryByModelAndDay() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        for model in ["gpt-4o-mini", "gpt-4o-mini", "house-model"] {
            let run = try await chat.run(["--base-url", server.baseURL, "-m", model, "hi"])
            #expect(run.status == 0)
        }
        let json = try await chat.run(["--stats", "--json"])
        #expect(json.status == 0)
        let rows = lines(json.stdout)
        #expect(rows.count == 2)
        // Every answer was reported as gpt-4o-mini's snapshot, so each has its price; the rows
        // are by the model asked for.
        let mini = try #require(rows.first { $0["model"] as? String == "gpt-4o-mini" })
        #expect(mini["answers"] as? Int == 2)
        #expect(mini["input_tokens"] as? Int == 40_000)
        #expect(mini["output_tokens"] as? Int == 20_000)
        #expect(abs((mini["cost_usd"] as? Double ?? 0) - 0.0165) < 1e-12)
        #expect(mini["provider"] as? String == "openai")
        let today = try #require(mini["day"] as? String)
        #expect(today.count == 10 && today.dropFirst(4).first == "-")
        let table = try await chat.run(["--stats"])
        #expect(table.stdout.contains("gpt-4o-mini"))
        #expect(table.stdout.contains("$0.0248"), "the total of three answers: \(table.stdout)")
        let none = try await chat.run(["--stats", "--since", "1"])
        #expect(none.status == 0)
        let bad = try await chat.run(["--stats", "--since", "0"])
        #expect(bad.status == 2)
    }
}
