import ChatDomain
import Foundation
import Testing

@testable import ChatHistory
@testable import ChatSystem

/// How the history stores an answer while it streams (`SQLiteConversationStore.recordAnswer`):
/// what a crash would leave behind, seen through the database itself.
@Suite("Answers stored while they stream", .timeLimit(.minutes(1)))
struct CheckpointedAnswerRecordingTests {
    private let root = NSTemporaryDirectory() + "chat-checkpoints-\(UUID().uuidString)"
    private let settings = ChatSettings(model: "model-a")

    private func open(
        interval: Duration,
        report: @escaping @Sendable (HistoryNotice) -> Void = { Issue.record("history report: \($0)") }
    ) async throws -> (SQLiteConversationStore, String) {
        let directory = try #require(DataDirectory(environment: ["XDG_DATA_HOME": root, "HOME": "/nonexistent"]))
        let store = try await SQLiteConversationStore.open(
            in: directory, checkpointInterval: interval, report: report
        ).get()
        let id = try #require(await store.begin(Conversation(settings: settings)))
        _ = await store.append(
            ChatMessage(role: .user, content: "Count"), settings: settings, systemPrompt: nil, to: id)
        return (store, id)
    }

    /// The answer's rows as stored, after the store's queued work.
    private func answers(_ store: SQLiteConversationStore, _ id: String) async throws -> [ChatMessage] {
        try await store.load(id).get().messages.filter { $0.role == .assistant }
    }

    /// Polls until `condition` holds for what is stored (at most `limit`).
    private func waitUntilStored(
        _ store: SQLiteConversationStore, _ id: String, within limit: Duration = .seconds(5),
        _ condition: ([ChatMessage]) -> Bool
    ) async throws -> [ChatMessage] {
        let deadline = ContinuousClock.now + limit
        var stored = try await answers(store, id)
        while !condition(stored) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
            stored = try await answers(store, id)
        }
        return stored
    }

    @Test func anAnswerAFallbackGivesIsStoredMarkedFromItsFirstPieceAndTheConversationKeepsItsModel() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (store, id) = try await open(interval: .zero)
        let claude = ChatSettings(model: "claude-model", provider: "anthropic")
        let recording = store.recordAnswer(to: id, settings: claude, systemPrompt: nil)
        recording.add(
            .fellBack(from: "main", to: "claude", model: "claude-model", after: .server(status: 503, message: "busy")))
        recording.add(.text("Half"))
        recording.add(.resumed(reason: .streamCut("reset")))
        // What a crash now would leave: the piece, marked with the profile, its model, resumed.
        let stored = try await waitUntilStored(store, id) { $0.first?.content == "Half" && $0.first?.resumed == true }
        #expect(stored.first?.answeredBy == AnsweredBy(profile: "claude", model: "claude-model"))
        #expect(stored.first?.resumed == true)
        // Continued, the conversation asks its own model, not the fallback's.
        #expect(try await store.load(id).get().settings.model == "model-a")
    }

    @Test func eachPieceIsStoredInterruptedUntilTheAnswerEndsWhole() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (store, id) = try await open(interval: .zero)
        let recording = store.recordAnswer(to: id, settings: settings, systemPrompt: nil)

        recording.add(.text("One"))
        let first = try await waitUntilStored(store, id) { $0.first?.content == "One" }
        #expect(first.map(\.content) == ["One"])
        #expect(first.map(\.state) == [.interrupted])

        recording.add(.text(" two"))
        let second = try await waitUntilStored(store, id) { $0.first?.content == "One two" }
        #expect(second.map(\.content) == ["One two"])

        let usage = TokenUsage(promptTokens: 5, completionTokens: 2)
        recording.add(.usage(usage))
        let whole = await recording.finish(ChatMessage(role: .assistant, content: "One two", usage: usage))
        let stored = try await answers(store, id)
        #expect(stored.count == 1)
        #expect(stored.first?.state == .complete)
        #expect(stored.first?.usage == usage)
        #expect(whole.storageID == stored.first?.storageID)
    }

    @Test func textThatStallsIsStoredAfterTheIntervalWithNoFurtherEvent() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (store, id) = try await open(interval: .seconds(2))
        let recording = store.recordAnswer(to: id, settings: settings, systemPrompt: nil)

        recording.add(.text("Before the stall"))
        // Nothing stored at once: the interval has not passed since the recording began …
        #expect(try await answers(store, id).isEmpty)
        // … but it is stored once it has, from the clock alone.
        let stored = try await waitUntilStored(store, id, within: .seconds(10)) { !$0.isEmpty }
        #expect(stored.map(\.content) == ["Before the stall"])
        #expect(stored.map(\.state) == [.interrupted])

        let ended = await recording.finish(
            ChatMessage(role: .assistant, content: "Before the stall", state: .interrupted))
        #expect(try await answers(store, id).map(\.storageID) == [ended.storageID])
    }

    @Test func manyPiecesWithinTheIntervalAreOneWrite() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (store, id) = try await open(interval: .seconds(3600))
        let recording = store.recordAnswer(to: id, settings: settings, systemPrompt: nil)

        for piece in 0..<1000 { recording.add(.text("\(piece) ")) }
        #expect(try await answers(store, id).isEmpty)
        _ = await recording.finish(ChatMessage(role: .assistant, content: "all of it"))
        #expect(try await answers(store, id).map(\.content) == ["all of it"])
    }

    @Test func anAnswerWithNoTextIsNotStoredUnlessItIsWhole() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (store, id) = try await open(interval: .zero)
        let recording = store.recordAnswer(to: id, settings: settings, systemPrompt: nil)

        recording.add(.reasoning("thinking"))
        try await Task.sleep(for: .milliseconds(50))
        #expect(try await answers(store, id).isEmpty)
        let ended = await recording.finish(ChatMessage(role: .assistant, content: "", state: .interrupted))
        #expect(ended.storageID == nil)
        #expect(try await answers(store, id).isEmpty)
    }

    /// A last write that fails (a full disk) leaves the row a checkpoint made: the answer keeps
    /// its id, so /undo and /retry can still remove it.
    @Test func aFailedLastWriteKeepsTheRowTheCheckpointMade() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (store, id) = try await open(interval: .zero, report: { _ in })
        let recording = store.recordAnswer(to: id, settings: settings, systemPrompt: nil)
        recording.add(.text("Half"))
        let checkpointed = try await waitUntilStored(store, id) { !$0.isEmpty }
        let row = try #require(checkpointed.first?.storageID)

        let directory = try #require(DataDirectory(environment: ["XDG_DATA_HOME": root, "HOME": "/nonexistent"]))
        let tamper = try SQLiteConnection(path: directory.file("history.sqlite"))
        try tamper.setBusyTimeout(milliseconds: 15_000)
        try tamper.execute(
            "CREATE TRIGGER fail_u BEFORE UPDATE ON message BEGIN SELECT RAISE(FAIL, 'disk is full'); END")

        let ended = await recording.finish(ChatMessage(role: .assistant, content: "Half and more"))
        #expect(ended.storageID == row)
    }
}
