import ChatDomain
import ChatTestSupport
import Synchronization
import Testing

private let settings = ChatSettings(model: "m", stream: true)
private let clock = StubToolSource.clock

private func calling(_ calls: ToolCall...) -> StubGPTRepository.Script {
    .answer([.toolCalls(calls), .finished(reason: "tool_calls")])
}

private func call(_ id: String, _ name: String = "time__now", _ arguments: JSONValue = .object([:])) -> ToolCall {
    ToolCall(id: id, name: name, arguments: arguments)
}

private let finalAnswer = StubGPTRepository.Script.answer([.text("It is noon."), .finished(reason: "stop")])

/// The results each request after the first carried in its last message, by call id.
private func results(_ repository: StubGPTRepository) -> [[String: ToolResult]] {
    repository.requests.dropFirst().map { request in
        Dictionary(uniqueKeysWithValues: (request.messages.last?.toolResults ?? []).map { ($0.callID, $0) })
    }
}

@Suite("The tool loop")
struct ToolLoopTests {
    @Test("calls run with consent, results go back, the answer to them ends the turn")
    func runsCalls() async throws {
        let repository = StubGPTRepository([calling(call("a"), call("b")), finalAnswer])
        let source = StubToolSource()
        let consent = StubConsent()
        let useCase = GPTChatUseCase(repository: repository, tools: ToolLoop(source: source, consent: consent))
        var conversation = Conversation(settings: settings)
        let turn = await useCase.send("What time is it?", in: &conversation) { _ in }
        #expect(turn.answer?.content == "It is noon.")
        #expect(turn.error == nil)
        #expect(consent.asked == ["a", "b"])
        #expect(source.received.map(\.id) == ["a", "b"])
        #expect(repository.requests.count == 2)
        #expect(repository.requests.allSatisfy { $0.tools == [clock] })
        #expect(conversation.messages.map(\.role) == [.user, .assistant, .tool, .assistant])
        #expect(conversation.messages[1].toolCalls.map(\.id) == ["a", "b"])
        let sent = try #require(results(repository).first)
        #expect(sent["a"]?.content == [.text("12:00")] && sent["a"]?.isError == false)
        #expect(sent["b"]?.content == [.text("12:00")])
        // The second request carries the calls and then their results.
        #expect(repository.requests[1].messages.suffix(2).map(\.role) == [.assistant, .tool])
    }

    @Test("a declined call is not run; the model gets an error result and the loop goes on")
    func denial() async throws {
        let repository = StubGPTRepository([calling(call("a"), call("b")), finalAnswer])
        let source = StubToolSource()
        let consent = StubConsent([.decline, .run])
        let useCase = GPTChatUseCase(repository: repository, tools: ToolLoop(source: source, consent: consent))
        var conversation = Conversation(settings: settings)
        let turn = await useCase.send("Time?", in: &conversation) { _ in }
        #expect(turn.answer?.content == "It is noon.")
        #expect(source.received.map(\.id) == ["b"])
        let sent = try #require(results(repository).first)
        #expect(sent["a"]?.isError == true)
        #expect(sent["a"]?.text.contains("declined") == true)
        #expect(sent["b"]?.isError == false)
    }

    @Test("edited arguments are the ones the tool gets")
    func edited() async {
        let repository = StubGPTRepository([calling(call("a")), finalAnswer])
        let source = StubToolSource()
        let edited = JSONValue.object(["zone": .string("UTC")])
        let useCase = GPTChatUseCase(
            repository: repository, tools: ToolLoop(source: source, consent: StubConsent([.runEdited(edited)])))
        var conversation = Conversation(settings: settings)
        _ = await useCase.send("Time?", in: &conversation) { _ in }
        #expect(source.received.map(\.arguments) == [edited])
    }

    @Test("a failing tool (a timeout) is an error result the model sees, and the loop goes on")
    func errorResult() async throws {
        let repository = StubGPTRepository([calling(call("a")), finalAnswer])
        let useCase = GPTChatUseCase(
            repository: repository, tools: ToolLoop(source: StubToolSource(failing: true), consent: StubConsent()))
        var conversation = Conversation(settings: settings)
        let turn = await useCase.send("Time?", in: &conversation) { _ in }
        #expect(turn.answer?.content == "It is noon.")
        let sent = try #require(results(repository).first)
        #expect(sent["a"]?.isError == true && sent["a"]?.text == "timed out after 60 s")
    }

    @Test("a call of an unknown tool or with arguments that are not JSON is not run nor asked about")
    func badCalls() async throws {
        let repository = StubGPTRepository([
            calling(call("a", "rm_rf"), call("b", "time__now", .string("{not json"))), finalAnswer,
        ])
        let source = StubToolSource()
        let consent = StubConsent()
        let useCase = GPTChatUseCase(repository: repository, tools: ToolLoop(source: source, consent: consent))
        var conversation = Conversation(settings: settings)
        _ = await useCase.send("Time?", in: &conversation) { _ in }
        #expect(source.received.isEmpty)
        #expect(consent.asked.isEmpty)
        let sent = try #require(results(repository).first)
        #expect(sent["a"]?.isError == true && sent["a"]?.text.contains("no tool named \"rm_rf\"") == true)
        #expect(sent["b"]?.isError == true && sent["b"]?.text.contains("not a JSON object") == true)
    }

    @Test("a model that calls tools forever stops at the limit when the consent says stop")
    func limit() async {
        // The last script repeats: every answer calls the tool again.
        let repository = StubGPTRepository([calling(call("a"))])
        let source = StubToolSource()
        let consent = StubConsent(goOn: false)
        let useCase = GPTChatUseCase(
            repository: repository, tools: ToolLoop(source: source, consent: consent, roundLimit: 3))
        var conversation = Conversation(settings: settings)
        let turn = await useCase.send("Time?", in: &conversation) { _ in }
        #expect(turn.answer == nil)
        #expect(turn.error == .toolRoundLimit(rounds: 3))
        #expect(source.received.count == 3)
        #expect(repository.requests.count == 4)
        #expect(consent.continues == [3])
        // Every call in the conversation has its result, the last ones saying they were not run.
        #expect(conversation.messages.last?.role == .tool)
        #expect(conversation.messages.last?.toolResults.first?.isError == true)
        let calls = conversation.messages.flatMap(\.toolCalls).map(\.id)
        let answered = conversation.messages.flatMap(\.toolResults).map(\.callID)
        #expect(calls.count == 4 && answered == calls)
    }

    @Test("going on after the limit allows as many rounds again")
    func goOn() async {
        let repository = StubGPTRepository([calling(call("a")), calling(call("b")), calling(call("c")), finalAnswer])
        let consent = StubConsent(goOn: true)
        let useCase = GPTChatUseCase(
            repository: repository, tools: ToolLoop(source: StubToolSource(), consent: consent, roundLimit: 2))
        var conversation = Conversation(settings: settings)
        let turn = await useCase.send("Time?", in: &conversation) { _ in }
        #expect(turn.answer?.content == "It is noon.")
        #expect(consent.continues == [2])
    }

    @Test("without tools, nothing is offered and tool calls are left alone")
    func noTools() async {
        let repository = StubGPTRepository([calling(call("a"))])
        let useCase = GPTChatUseCase(repository: repository)
        var conversation = Conversation(settings: settings)
        let turn = await useCase.send("Time?", in: &conversation) { _ in }
        #expect(repository.requests.count == 1)
        #expect(repository.requests[0].tools.isEmpty)
        #expect(turn.answer?.toolCalls.map(\.id) == ["a"])
    }
}

@Suite("A tool result's size")
struct ToolResultCutTests {
    @Test("a result over the limit is cut at a character's edge, saying how much was left out")
    func cut() {
        let result = ToolResult(callID: "a", content: [.text("ab"), .text("cdé"), .text("fgh")])
        let cut = result.cut(toBytes: 4)
        #expect(
            cut.content == [
                .text("ab"), .text("cd"), .text("[the result was cut here: 5 of its 9 bytes were left out]"),
            ])
        let inside = result.cut(toBytes: 5)
        #expect(inside.content.prefix(2) == [.text("ab"), .text("cd")])
        #expect(result.cut(toBytes: 9) == result)
    }

    @Test("the loop sends at most the limit of a result to the model")
    func loopCuts() async throws {
        let repository = StubGPTRepository([calling(call("a")), finalAnswer])
        let useCase = GPTChatUseCase(
            repository: repository,
            tools: ToolLoop(source: StubToolSource(), consent: StubConsent(), maxResultBytes: 2))
        var conversation = Conversation(settings: settings)
        _ = await useCase.send("Time?", in: &conversation) { _ in }
        let sent = try #require(results(repository).first?["a"])
        #expect(sent.content.first == .text("12"))
        #expect(sent.text.contains("3 of its 5 bytes were left out"))
    }

    @Test("the tools are asked for again each round: a tool a round added is offered and callable in the next")
    func toolsChangeBetweenRounds() async throws {
        let added = ToolDefinition(
            name: "time__zone", description: "The zone", parameters: .object(["type": .string("object")]),
            origin: ToolOrigin(server: "time", tool: "zone"))
        let source = GrowingToolSource(added: added)
        let repository = StubGPTRepository([
            calling(call("a")), calling(call("b", "time__zone")), finalAnswer,
        ])
        let useCase = GPTChatUseCase(
            repository: repository, tools: ToolLoop(source: source, consent: StubConsent()))
        var conversation = Conversation(settings: settings)
        let turn = await useCase.send("Time?", in: &conversation) { _ in }
        #expect(turn.answer?.content == "It is noon.")
        #expect(
            repository.requests.map { $0.tools.map(\.name) } == [
                ["time__now"], ["time__now", "time__zone"], ["time__now", "time__zone"],
            ])
        // The call of the new tool ran; it was not refused as unknown.
        let second = try #require(results(repository).dropFirst().first)
        #expect(second["b"]?.isError == false && second["b"]?.content == [.text("Europe/Paris")])
    }
}

/// A tool source whose first call adds a tool (as a server that says its list changed).
private final class GrowingToolSource: ToolSource {
    private let grown = Mutex(false)
    private let added: ToolDefinition

    init(added: ToolDefinition) { self.added = added }

    func tools() async -> [ToolDefinition] {
        grown.withLock { $0 } ? [clock, added] : [clock]
    }

    func call(_ call: ToolCall, tool: ToolDefinition) async -> ToolResult {
        grown.withLock { $0 = true }
        return ToolResult(callID: call.id, content: [.text(tool.name == "time__zone" ? "Europe/Paris" : "12:00")])
    }
}
