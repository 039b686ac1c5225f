import ChatDomain
import Foundation
import Testing

@testable import ChatHistory
@testable import ChatSystem

/// `SQLiteConversationStore.spending(since:)`, what `--stats` shows, over rows written straight
/// into a history the store made: answers added up by UTC day, model and provider (the
/// provider `openai` when the settings name none), the compactions' summaries counted in tokens
/// and cost but not as answers, unknown costs counted, and `since` cutting the first day at its
/// second, not at its midnight.
@Suite struct SpendingQueryTests {
    private let root = NSTemporaryDirectory() + "chat-spending-\(UUID().uuidString)"

    /// Seconds since 1970 of `day` (days since 1970) plus `hour` hours.
    private func at(_ day: Int, hour: Double) -> Double { Double(day) * 86_400 + hour * 3_600 }

    @Test func answersAndCompactionsAddUpByDayModelAndProvider() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let directory = try #require(DataDirectory(environment: ["XDG_DATA_HOME": root, "HOME": "/nonexistent"]))
        let store = try await SQLiteConversationStore.open(in: directory, report: { _ in }).get()
        let day = 20_000  // 2024-10-04
        let connection = try SQLiteConnection(path: directory.file("history.sqlite"))
        var statements = ["INSERT INTO conversation(id, created_at, updated_at) VALUES ('c', 0, 0);"]
        func answer(_ time: Double, _ model: String, _ provider: String?, _ tokens: (Int, Int), cost: Double?) {
            let settings = provider.map { "'{\"provider\": \"\($0)\"}'" } ?? "NULL"
            statements.append(
                """
                INSERT INTO message(conversation_id, role, content, state, model, settings, prompt_tokens,
                    completion_tokens, cost_usd, created_at, updated_at)
                VALUES ('c', 'assistant', 'a', 'complete', '\(model)', \(settings), \(tokens.0), \(tokens.1),
                    \(cost.map { "\($0)" } ?? "NULL"), \(time), \(time));
                """)
        }
        // Day one: one answer before `since` (left out) and one after it.
        answer(at(day, hour: 1), "m", nil, (1_000, 1_000), cost: 1)
        answer(at(day, hour: 20), "m", nil, (10, 20), cost: 0.5)
        // Day two: two answers of m (one with no known cost), one of m on Anthropic, a summary of m.
        answer(at(day + 1, hour: 2), "m", "openai", (100, 200), cost: 0.25)
        answer(at(day + 1, hour: 3), "m", nil, (1, 2), cost: nil)
        answer(at(day + 1, hour: 4), "m", "anthropic", (5, 6), cost: 0.125)
        // A question is never counted.
        statements.append(
            """
            INSERT INTO message(conversation_id, role, content, state, model, prompt_tokens, created_at, updated_at)
            VALUES ('c', 'user', 'q', 'complete', 'm', 99999, \(at(day + 1, hour: 5)), \(at(day + 1, hour: 5)));
            INSERT INTO compaction(conversation_id, through_id, summary, model, provider, prompt_tokens,
                completion_tokens, cost_usd, created_at)
            VALUES ('c', 1, 's', 'm', 'openai', 40, 8, 0.0625, \(at(day + 1, hour: 6)));
            """)
        try connection.execute(statements.joined(separator: "\n"))

        let rows = try await store.spending(since: at(day, hour: 12)).get()
        #expect(
            rows == [
                SpendingRow(
                    model: "m", provider: "anthropic", day: "2024-10-05", answers: 1, inputTokens: 5, outputTokens: 6,
                    costUSD: 0.125, unknownCost: 0),
                SpendingRow(
                    model: "m", provider: "openai", day: "2024-10-05", answers: 2, inputTokens: 141, outputTokens: 210,
                    costUSD: 0.3125, unknownCost: 1),
                SpendingRow(
                    model: "m", provider: "openai", day: "2024-10-04", answers: 1, inputTokens: 10, outputTokens: 20,
                    costUSD: 0.5, unknownCost: 0),
            ])
        // From before the first day: every answer; from after the last: none.
        let all = try await store.spending(since: 0).get()
        #expect(all.last?.answers == 2 && all.last?.inputTokens == 1_010)
        #expect(try await store.spending(since: at(day + 2, hour: 0)).get().isEmpty)
    }
}
