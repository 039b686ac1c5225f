import ChatDomain
import ChatTestSupport
import Synchronization
import Testing

// MARK: - A recorder that remembers

/// One thing that happened, in order: a call on the recorder, or an event the use case handed on.
private enum Entry: Equatable {
    case begin
    /// `requestsSent`: how many requests the repository had seen when the message was stored.
    case append(id: Int64, role: Role, content: String, state: MessageState, usage: TokenUsage?, requestsSent: Int)
    case update(id: Int64, content: String, state: MessageState, usage: TokenUsage?)
    case remove([Int64])
    case branch(after: Int64?)
    case event(ChatEvent)
    /// An event handed to the answer's recording.
    case recorded(ChatEvent)
}

/// A stored row of the in-memory history.
private struct Row: Equatable {
    var role: Role
    var content: String
    var state: MessageState
    var usage: TokenUsage?
    var model: String
    var systemPrompt: String?
}

/// `ConversationRecorder` in memory: keeps the rows and the order of every call.
private final class MemoryRecorder: ConversationRecorder {
    private struct State {
        var entries: [Entry] = []
        var rows: [Int64: Row] = [:]
        var nextID: Int64 = 1
        var conversations = 0
    }

    private let state = Mutex(State())
    private let requestsSent: @Sendable () -> Int

    /// `requestsSent` tells how many requests the repository has received so far.
    init(requestsSent: @escaping @Sendable () -> Int) {
        self.requestsSent = requestsSent
    }

    var entries: [Entry] { state.withLock { $0.entries } }

    /// The stored rows, oldest first.
    var rows: [Row] { state.withLock { state in state.rows.keys.sorted().compactMap { state.rows[$0] } } }

    var rowIDs: [Int64] { state.withLock { $0.rows.keys.sorted() } }

    func note(_ event: ChatEvent) {
        state.withLock { $0.entries.append(.event(event)) }
    }

    func begin(_ conversation: Conversation) async -> String? {
        state.withLock { state in
            state.entries.append(.begin)
            state.conversations += 1
            return "conv000\(state.conversations)"
        }
    }

    func append(
        contentsOf messages: [ChatMessage], settings: ChatSettings, systemPrompt: String?, to conversationID: String
    ) async -> [Int64]? {
        let sent = requestsSent()
        return state.withLock { state in
            messages.map { message in
                let id = state.nextID
                state.nextID += 1
                state.entries.append(
                    .append(
                        id: id, role: message.role, content: message.content, state: message.state,
                        usage: message.usage, requestsSent: sent))
                state.rows[id] = Row(
                    role: message.role, content: message.content, state: message.state, usage: message.usage,
                    model: settings.model, systemPrompt: systemPrompt)
                return id
            }
        }
    }

    func update(_ message: ChatMessage, id: Int64) async {
        state.withLock { state in
            state.entries.append(.update(id: id, content: message.content, state: message.state, usage: message.usage))
            state.rows[id]?.content = message.content
            state.rows[id]?.state = message.state
            state.rows[id]?.usage = message.usage
        }
    }

    func remove(ids: [Int64]) async {
        state.withLock { state in
            state.entries.append(.remove(ids))
            for id in ids { state.rows[id] = nil }
        }
    }

    func branch(_ conversationID: String, after messageID: Int64?) async {
        state.withLock { $0.entries.append(.branch(after: messageID)) }
    }

    func compacted(
        _ compaction: Compaction, through messageID: Int64, settings: ChatSettings, usage: TokenUsage?,
        of conversationID: String
    ) async {}

    func recordAnswer(to conversationID: String, settings: ChatSettings, systemPrompt: String?)
        -> any AnswerRecording
    {
        MemoryAnswerRecording(recorder: self, conversationID: conversationID, settings: settings)
    }

    func noteRecorded(_ event: ChatEvent) {
        state.withLock { $0.entries.append(.recorded(event)) }
    }
}

/// Notes each event it is handed and stores the answer at `finish` (when to store more often is
/// the real recorder's business, tested with it).
private final class MemoryAnswerRecording: AnswerRecording {
    let recorder: MemoryRecorder
    let conversationID: String
    let settings: ChatSettings

    init(recorder: MemoryRecorder, conversationID: String, settings: ChatSettings) {
        self.recorder = recorder
        self.conversationID = conversationID
        self.settings = settings
    }

    func add(_ event: ChatEvent) {
        recorder.noteRecorded(event)
    }

    func finish(_ answer: ChatMessage) async -> ChatMessage {
        var stored = answer
        if let id = answer.storageID {
            await recorder.update(answer, id: id)
        } else {
            stored.storageID = await recorder.append(
                answer, settings: settings, systemPrompt: systemPrompt, to: conversationID)
        }
        return stored
    }
}

// MARK: - Helpers

private let settings = ChatSettings(model: "test-model")
private let systemPrompt = "Answer briefly."
private let usage = TokenUsage(promptTokens: 20, completionTokens: 3)

private func newConversation(_ messages: [ChatMessage] = []) -> Conversation {
    Conversation(systemPrompt: systemPrompt, settings: settings, messages: messages)
}

/// A stub, a recorder that sees the stub's requests, and the use case over both.
private func makeUseCase(_ scripts: [StubGPTRepository.Script]) -> (GPTChatUseCase, StubGPTRepository, MemoryRecorder) {
    let stub = StubGPTRepository(scripts)
    let recorder = MemoryRecorder(requestsSent: { stub.requests.count })
    let useCase = GPTChatUseCase(repository: stub, recorder: recorder)
    return (useCase, stub, recorder)
}

private func answer(_ pieces: String...) -> StubGPTRepository.Script {
    .answer(pieces.map(ChatEvent.text) + [.usage(usage), .finished(reason: "stop")])
}

// MARK: - Storing as it happens

@Suite("GPTChatUseCase with a recorder", .timeLimit(.minutes(1)))
struct RecordingUseCaseTests {
    /// The question is stored while the request is on its way (so the history's writes overlap
    /// the network), and always before any of the answer is handed on.
    @Test func theUserMessageIsStoredBeforeAnyOfTheAnswerAndTheAnswerAtTheEnd() async {
        let (useCase, stub, recorder) = makeUseCase([answer("Hi", " there")])
        var conversation = newConversation()

        let reply = await useCase.send("Hello", in: &conversation) { recorder.note($0) }

        #expect(reply.answer?.content == "Hi there")
        #expect(conversation.id == "conv0001")
        #expect(stub.requests.count == 1)
        #expect(
            recorder.entries == [
                .begin,
                .append(id: 1, role: .user, content: "Hello", state: .complete, usage: nil, requestsSent: 1),
                .event(.text("Hi")), .recorded(.text("Hi")), .event(.text(" there")), .recorded(.text(" there")),
                .event(.usage(usage)), .recorded(.usage(usage)), .event(.finished(reason: "stop")),
                .recorded(.finished(reason: "stop")),
                .append(id: 2, role: .assistant, content: "Hi there", state: .complete, usage: usage, requestsSent: 1),
            ])
        #expect(
            recorder.rows == [
                Row(role: .user, content: "Hello", state: .complete, model: "test-model", systemPrompt: systemPrompt),
                Row(
                    role: .assistant, content: "Hi there", state: .complete, usage: usage, model: "test-model",
                    systemPrompt: systemPrompt),
            ])
        // The conversation knows its rows, so /undo and /retry can remove them.
        #expect(conversation.messages.map(\.storageID) == [1, 2])
    }

    @Test func aContinuedConversationIsNotBegunAgain() async {
        let (useCase, _, recorder) = makeUseCase([answer("Two")])
        var conversation = newConversation([
            ChatMessage(role: .user, content: "One", storageID: 7),
            ChatMessage(role: .assistant, content: "Uno", storageID: 8),
        ])
        conversation.id = "stored01"

        _ = await useCase.send("Next", in: &conversation) { _ in }

        #expect(!recorder.entries.contains(.begin))
        #expect(conversation.id == "stored01")
        #expect(recorder.rows.map(\.content) == ["Next", "Two"])
    }

    /// Each event reaches the recording as it arrives (the recorder decides when to write; its
    /// timing is tested with the SQLite store), and the answer is stored as it ended.
    @Test func theAnswerStreamsIntoTheRecordingThenIsStoredComplete() async {
        let (useCase, _, recorder) = makeUseCase([answer("One", " two")])
        var conversation = newConversation()

        _ = await useCase.send("Count", in: &conversation) { recorder.note($0) }

        #expect(
            Array(recorder.entries.dropFirst(2)) == [
                .event(.text("One")), .recorded(.text("One")), .event(.text(" two")), .recorded(.text(" two")),
                .event(.usage(usage)), .recorded(.usage(usage)), .event(.finished(reason: "stop")),
                .recorded(.finished(reason: "stop")),
                .append(id: 2, role: .assistant, content: "One two", state: .complete, usage: usage, requestsSent: 1),
            ])
        #expect(recorder.rows.last?.state == .complete)
        #expect(conversation.messages.last?.storageID == 2)
    }

    @Test func aConversationLoadedFromAFileIsStoredWholeWhenFirstStored() async {
        let (useCase, _, recorder) = makeUseCase([answer("A2")])
        var conversation = newConversation([
            ChatMessage(role: .user, content: "Q1"), ChatMessage(role: .assistant, content: "A1", state: .interrupted),
        ])

        _ = await useCase.send("Q2", in: &conversation) { _ in }

        #expect(recorder.entries.first == .begin)
        #expect(recorder.rows.map(\.content) == ["Q1", "A1", "Q2", "A2"])
        #expect(recorder.rows.map(\.state) == [.complete, .interrupted, .complete, .complete])
        #expect(conversation.messages.map(\.storageID) == [1, 2, 3, 4])
        // Stored once: the next message adds only itself.
        _ = await useCase.send("Q3", in: &conversation) { _ in }
        #expect(recorder.rows.map(\.content) == ["Q1", "A1", "Q2", "A2", "Q3", "A2"])
    }

    @Test func anAnswerStoppedByCtrlCIsStoredInterrupted() async {
        let (useCase, _, recorder) = makeUseCase([.hang([.text("Partial ")])])
        let (events, continuation) = AsyncStream<ChatEvent>.makeStream()
        let task = Task {
            var conversation = newConversation()
            let turn = await useCase.send("Tell me a story", in: &conversation) { continuation.yield($0) }
            continuation.finish()
            return (turn: turn, messages: conversation.messages)
        }
        let conversation = await withTaskCancellationHandler {
            var iterator = events.makeAsyncIterator()
            _ = await iterator.next()
            task.cancel()
            return await task.value
        } onCancel: {
            task.cancel()
        }

        #expect(conversation.turn.error == .cancelled)
        #expect(recorder.rows.map(\.content) == ["Tell me a story", "Partial "])
        #expect(recorder.rows.map(\.state) == [.complete, .interrupted])
        #expect(conversation.messages.last?.state == .interrupted)
        #expect(conversation.messages.last?.storageID == 2)
    }

    @Test func anAnswerCutOffByTheServerIsStoredInterrupted() async {
        let (useCase, _, recorder) = makeUseCase([.answer([.text("Half an")], failure: .streamCut("eof"))])
        var conversation = newConversation()

        #expect(await useCase.send("Question", in: &conversation) { _ in }.answer == nil)

        #expect(recorder.rows.map(\.content) == ["Question", "Half an"])
        #expect(recorder.rows.map(\.state) == [.complete, .interrupted])
    }

    @Test func aFailureWithNoTextStoresTheUserMessageFailedAndNoAnswer() async {
        let (useCase, _, recorder) = makeUseCase([
            .answer(
                [.retrying(attempt: 1, limit: 1, delay: 0, reason: "503")],
                failure: .server(status: 503, message: "overloaded"))
        ])
        var conversation = newConversation()

        #expect(await useCase.send("Hello?", in: &conversation) { _ in }.answer == nil)

        #expect(
            recorder.entries == [
                .begin,
                .append(id: 1, role: .user, content: "Hello?", state: .complete, usage: nil, requestsSent: 1),
                .recorded(.retrying(attempt: 1, limit: 1, delay: 0, reason: "503")),
                .update(id: 1, content: "Hello?", state: .failed, usage: nil),
            ])
        #expect(recorder.rows.map(\.role) == [.user])
        #expect(conversation.messages.map(\.state) == [.failed])
    }

    @Test func retryReplacesTheAnswerAndKeepsTheReplacedOneOnABranchOfItsOwn() async {
        let (useCase, _, recorder) = makeUseCase([
            .answer([.text("Half")], failure: .streamCut("eof")), answer("Whole"),
        ])
        var conversation = newConversation()
        _ = await useCase.send("Question", in: &conversation) { _ in }
        #expect(recorder.rowIDs == [1, 2])

        let reply = await useCase.retry(in: &conversation) { _ in }

        #expect(reply.answer?.content == "Whole")
        // The new answer follows the question: a branch after it, before the answer is stored.
        let branch = recorder.entries.firstIndex(of: .branch(after: 1))
        let stored = recorder.entries.lastIndex { if case .append(id: 3, _, _, _, _, _) = $0 { true } else { false } }
        #expect((branch ?? .max) < (stored ?? .min))
        #expect(!recorder.entries.contains { if case .remove = $0 { true } else { false } })
        #expect(recorder.rowIDs == [1, 2, 3])
        #expect(recorder.rows.map(\.content) == ["Question", "Half", "Whole"])
        #expect(conversation.messages.map(\.content) == ["Question", "Whole"])
        #expect(conversation.messages.map(\.storageID) == [1, 3])
    }

    @Test func retryAfterAFailureStoresTheQuestionCompleteAgain() async {
        let (useCase, _, recorder) = makeUseCase([
            .answer([], failure: .connection(.other, message: "refused")), answer("Finally"),
        ])
        var conversation = newConversation()
        _ = await useCase.send("Question", in: &conversation) { _ in }
        #expect(recorder.rows.map(\.state) == [.failed])

        _ = await useCase.retry(in: &conversation) { _ in }

        #expect(recorder.rows.map(\.content) == ["Question", "Finally"])
        #expect(recorder.rows.map(\.state) == [.complete, .complete])
    }

    @Test func undoRemovesBothRowsOfTheLastExchange() async {
        let (useCase, _, recorder) = makeUseCase([answer("A1"), answer("A2")])
        var conversation = newConversation()
        _ = await useCase.send("Q1", in: &conversation) { _ in }
        _ = await useCase.send("Q2", in: &conversation) { _ in }
        #expect(recorder.rowIDs == [1, 2, 3, 4])

        let first = await useCase.undo(in: &conversation)
        #expect(first)
        #expect(recorder.entries.last == .remove([3, 4]))
        #expect(recorder.rows.map(\.content) == ["Q1", "A1"])

        let second = await useCase.undo(in: &conversation)
        #expect(second)
        #expect(recorder.rowIDs == [])
        let calls = recorder.entries.count
        let third = await useCase.undo(in: &conversation)
        #expect(!third)
        #expect(recorder.entries.count == calls)
    }
}

// MARK: - The context window

/// Text of 40 bytes: an estimated 14 tokens as a message (10 for the text, 4 for the framing).
private func text40(_ label: String) -> String {
    label + String(repeating: ".", count: 40 - label.utf8.count)
}

private func user(_ label: String, _ state: MessageState = .complete) -> ChatMessage {
    ChatMessage(role: .user, content: text40(label), state: state)
}

private func assistant(_ label: String) -> ChatMessage {
    ChatMessage(role: .assistant, content: text40(label))
}

/// The system prompt "sys" is an estimated 5 tokens; each message 14.
private func windowed(_ limit: Int?, system: String? = "sys", _ messages: [ChatMessage]) -> ([String], Int) {
    let conversation = Conversation(
        systemPrompt: system, settings: ChatSettings(model: "m", maxContextTokens: limit), messages: messages)
    let (kept, omitted) = conversation.requestMessagesWithinContext
    return (kept.map { $0.role == .system ? "system" : String($0.content.prefix { $0 != "." }) }, omitted)
}

@Suite("Context window (max_context_tokens)")
struct ContextWindowTests {
    let turns = [user("u1"), assistant("a1"), user("u2"), assistant("a2"), user("u3")]

    @Test func noLimitOrALimitThatFitsSendsEverything() {
        #expect(windowed(nil, turns) == (["system", "u1", "a1", "u2", "a2", "u3"], 0))
        #expect(windowed(75, turns) == (["system", "u1", "a1", "u2", "a2", "u3"], 0))
    }

    @Test func theOldestTurnsGoFirstAndTheSystemPromptStays() {
        // 75 estimated: leaving out u1 is enough for 74, but a1 would then begin the turns unasked.
        #expect(windowed(74, turns) == (["system", "u2", "a2", "u3"], 2))
        #expect(windowed(47, turns) == (["system", "u2", "a2", "u3"], 2))
        #expect(windowed(46, turns) == (["system", "u3"], 4))
    }

    @Test func theNewestMessageAlwaysStays() {
        #expect(windowed(1, turns) == (["system", "u3"], 4))
        #expect(windowed(1, system: nil, turns) == (["u3"], 4))
    }

    @Test func withoutASystemPromptTheTurnsStillNeverBeginWithAnAnswer() {
        // 70 estimated; 60 leaves out u1, and then a1 too.
        #expect(windowed(60, system: nil, turns) == (["u2", "a2", "u3"], 2))
    }

    @Test func failedMessagesAreNotCountedAsLeftOut() {
        let withFailure = [user("u1"), assistant("a1"), user("lost", .failed), user("u2"), assistant("a2"), user("u3")]
        #expect(windowed(47, withFailure) == (["system", "u2", "a2", "u3"], 2))
    }

    @Test func theUseCaseSendsTheWindowReportsTheOmittedCountAndStoresEverything() async {
        let (useCase, stub, recorder) = makeUseCase([answer("a3"), answer("a4")])
        var conversation = Conversation(
            systemPrompt: "sys", settings: ChatSettings(model: "m", maxContextTokens: 47),
            messages: [user("u1"), assistant("a1"), user("u2"), assistant("a2")])

        let turn = await useCase.send(text40("u3"), in: &conversation) { _ in }

        let sent = stub.requests.first?.messages.map { String($0.content.prefix { $0 != "." }) }
        #expect(sent == ["sys", "u2", "a2", "u3"])
        #expect(turn.omittedMessages == 2)
        // Left out of the request, never out of the conversation or the history.
        #expect(conversation.messages.count == 6)
        #expect(!recorder.entries.contains { if case .remove = $0 { true } else { false } })

        conversation.settings.maxContextTokens = nil
        let next = await useCase.send("u4", in: &conversation) { _ in }
        #expect(next.omittedMessages == 0)
        #expect(stub.requests.last?.messages.count == 8)
    }
}
