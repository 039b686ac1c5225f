import ChatDomain
import ChatPresentation
import ChatTestSupport
import Testing

/// An answer that calls the stub's clock.
private let calling = StubGPTRepository.Script.answer([
    .toolCalls([ToolCall(id: "a", name: "time__now", arguments: .object([:]))]), .finished(reason: "tool_calls"),
])

private func says(_ text: String) -> StubGPTRepository.Script {
    .answer([.text(text), .finished(reason: "stop")])
}

/// A REPL whose answers may call tools (the stub source and consent), fed `lines`.
private func run(_ lines: [String], answers: [StubGPTRepository.Script]) async -> (REPL, StubGPTRepository) {
    let stub = StubGPTRepository(answers)
    let output = CapturingSink()
    let notes = CapturingSink()
    let style = TerminalStyle(isTerminal: false, environment: [:])
    let parts = REPL.Parts(
        useCase: GPTChatUseCase(
            repository: stub, tools: ToolLoop(source: StubToolSource(), consent: StubConsent())),
        reader: ScriptedLineReader(lines.map { .line($0) }), output: output, notes: notes, outputStyle: style,
        notesStyle: style, archive: MemoryConversationArchive(), editor: nil, control: SessionControl(),
        conversationSwitch: ConversationSwitch(configured: ChatSettings(model: "m"), given: ChatSettings(model: "")),
        roles: [], role: nil, attachmentReader: nil, attachments: Attachments())
    let repl = REPL(parts: parts, conversation: Conversation(settings: ChatSettings(model: "m")))
    _ = await repl.run(firstMessage: nil, endAfterFirst: false)
    return (repl, stub)
}

/// `/retry` and `/undo` take a round of tool calls as part of the answer it led to.
@Suite("Tool rounds and /retry, /undo", .timeLimit(.minutes(1)))
struct ToolRoundCommandsTests {
    @Test func undoDropsTheQuestionItsRoundAndTheAnswer() async {
        let (repl, stub) = await run(
            ["What time is it?", "/undo", "Hello"], answers: [calling, says("Noon."), says("Hi.")])
        #expect(repl.conversation.messages.map(\.content) == ["Hello", "Hi."])
        #expect(stub.requests.last?.messages.map(\.role) == [.user])
    }

    @Test func retryAsksAgainFromTheQuestion() async {
        let (repl, stub) = await run(
            ["What time is it?", "/retry"], answers: [calling, says("Noon."), says("Still noon.")])
        #expect(repl.conversation.messages.map(\.content) == ["What time is it?", "Still noon."])
        #expect(stub.requests.count == 3)
        #expect(stub.requests.last?.messages.map(\.role) == [.user])
    }
}
