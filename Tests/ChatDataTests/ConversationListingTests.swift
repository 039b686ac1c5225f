import ChatDomain
import Foundation
import Testing

@testable import ChatHistory
@testable import ChatSystem

/// Listing and searching stored conversations: those with no answer left out and counted, the
/// limit, and the snippets a search shows.
@Suite("Conversation listings", .timeLimit(.minutes(1)))
struct ConversationListingTests {
    private let root = NSTemporaryDirectory() + "chat-listing-\(UUID().uuidString)"
    private let settings = ChatSettings(model: "m")

    private func open() async throws -> SQLiteConversationStore {
        let directory = try #require(DataDirectory(environment: ["XDG_DATA_HOME": root]))
        return try await SQLiteConversationStore.open(in: directory, report: { _ in }).get()
    }

    /// A conversation of `messages` (user, assistant, user… in turn); its id.
    private func store(_ texts: [String], in store: SQLiteConversationStore, failed: Bool = false) async throws
        -> String
    {
        let id = try #require(await store.begin(Conversation(settings: settings)))
        for (index, text) in texts.enumerated() {
            let role: Role = index % 2 == 0 ? .user : .assistant
            let state: MessageState = failed && role == .user ? .failed : .complete
            _ = await store.append(
                ChatMessage(role: role, content: text, state: state), settings: settings, systemPrompt: nil, to: id)
        }
        return id
    }

    @Test func conversationsWithNoAnswerAreLeftOutAndCountedUnlessAskedFor() async throws {
        let history = try await open()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let answered = try await store(["first question", "first answer"], in: history)
        let failed = try await store(["refused question"], in: history, failed: true)
        let alsoFailed = try await store(["another refused question"], in: history, failed: true)

        let tidy = try await history.list(limit: nil, includingUnanswered: false).get()
        #expect(tidy.summaries.map(\.id) == [answered])
        #expect(tidy.unansweredLeftOut == 2)
        #expect(tidy.beyondLimit == 0)
        let all = try await history.list(limit: nil, includingUnanswered: true).get()
        #expect(all.summaries.map(\.id) == [alsoFailed, failed, answered])
        #expect(all.unansweredLeftOut == 0)
        // The old calls still list everything.
        #expect(try await history.list(limit: 10).get().count == 3)

        // -c: the most recent conversation that has an answer.
        #expect(try await history.mostRecentlyUsed(answeredOnly: true).get()?.id == answered)
        #expect(try await history.mostRecentlyUsed(answeredOnly: false).get()?.id == alsoFailed)

        let found = try await history.search("question", limit: nil, includingUnanswered: false).get()
        #expect(found.summaries.map(\.id) == [answered])
        #expect(found.unansweredLeftOut == 2)
    }

    /// Whether a conversation has an answer is kept as its messages come and go: one whose only
    /// answer is removed (`/undo`) is left out again, and an answer stored later brings it back.
    @Test func aConversationWhoseAnswerIsRemovedIsUnansweredAgain() async throws {
        let history = try await open()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let id = try #require(await history.begin(Conversation(settings: settings)))
        _ = await history.append(
            ChatMessage(role: .user, content: "a question", state: .complete), settings: settings, systemPrompt: nil,
            to: id)
        #expect(try await history.list(limit: nil, includingUnanswered: false).get().summaries.isEmpty)
        let answer = try #require(
            await history.append(
                ChatMessage(role: .assistant, content: "an answer", state: .complete), settings: settings,
                systemPrompt: nil, to: id))
        #expect(try await history.list(limit: nil, includingUnanswered: false).get().summaries.map(\.id) == [id])
        #expect(try await history.mostRecentlyUsed(answeredOnly: true).get()?.id == id)

        await history.remove(ids: [answer])
        let listed = try await history.list(limit: nil, includingUnanswered: false).get()
        #expect(listed.summaries.isEmpty)
        #expect(listed.unansweredLeftOut == 1)
        #expect(try await history.mostRecentlyUsed(answeredOnly: true).get() == nil)

        _ = await history.append(
            ChatMessage(role: .assistant, content: "another answer", state: .complete), settings: settings,
            systemPrompt: nil, to: id)
        #expect(try await history.list(limit: nil, includingUnanswered: false).get().summaries.map(\.id) == [id])
    }

    @Test func theLimitCountsWhatItLeftOut() async throws {
        let history = try await open()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var ids: [String] = []
        for number in 1...5 { ids.append(try await store(["question \(number)", "answer \(number)"], in: history)) }

        let two = try await history.list(limit: 2, includingUnanswered: false).get()
        #expect(two.summaries.map(\.id) == [ids[4], ids[3]])
        #expect(two.beyondLimit == 3)
        let five = try await history.list(limit: 5, includingUnanswered: false).get()
        #expect(five.beyondLimit == 0)
        let searched = try await history.search("answer", limit: 1, includingUnanswered: false).get()
        #expect(searched.summaries.count == 1)
        #expect(searched.beyondLimit == 4)
    }

    @Test func aSearchShowsWhereTheNewestMatchingMessageMatchedWithTheWordsMarked() async throws {
        let history = try await open()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let python = try await store(
            [
                "How do I flatten a nested list in Python?",
                "Use a list comprehension:\n[x for row in rows for x in row]\nIt reads left to right.",
            ], in: history)
        _ = try await store(["a bread recipe", "flour and water"], in: history)
        let titled = try await store(["unrelated words", "more words"], in: history)
        _ = await history.rename(titled, title: "my list comprehension notes")

        let found = try await history.search("list comprehension", limit: nil, includingUnanswered: false).get()
        #expect(found.summaries.map(\.id) == [titled, python])
        // The title matched, not a message: no snippet.
        #expect(found.summaries.first?.snippet == nil)
        let snippet = try #require(found.summaries.last?.snippet)
        #expect(snippet.parts.filter(\.isMatch).map(\.text) == ["list", "comprehension"])
        #expect(snippet.text.hasPrefix("Use a list comprehension: [x for row"))
        #expect(!snippet.text.contains("\n"))
        // Every word must be in one message; the words need not be next to each other.
        #expect(
            try await history.search("comprehension reads", limit: nil, includingUnanswered: false).get()
                .summaries.map(\.id) == [python])
        #expect(
            try await history.search("bread comprehension", limit: nil, includingUnanswered: false).get()
                .summaries.isEmpty)
    }

    @Test func markedSnippetTextBecomesParts() {
        let snippet = MatchSnippet(marked: "…say \u{1}hello\u{2}\n\tto the \u{1}world\u{2}…")
        #expect(
            snippet.parts == [
                MatchSnippet.Part("…say "), MatchSnippet.Part("hello", isMatch: true), MatchSnippet.Part(" to the "),
                MatchSnippet.Part("world", isMatch: true), MatchSnippet.Part("…"),
            ])
    }
}
