import ChatDomain
import ChatPresentation
import ChatTestSupport
import Testing

/// A schema checker that finds every answer wrong at `$.x`.
private struct RejectingChecker: SchemaChecker {
    func schema(_ text: String) throws(SchemaProblem) -> ResponseSchema { ResponseSchema(schema: .object([:])) }

    func firstMismatch(inAnswer answer: String, against schema: ResponseSchema) -> SchemaMismatch? {
        SchemaMismatch(path: "$.x", problem: .missing("y"))
    }
}

/// `JSONLinesAnswerRenderer` behind `OneShotPresenter`: one write per line, the reader going,
/// and a schema mismatch after `done`.
@Suite struct JSONLinesAnswerRendererTests {
    private func run(
        _ stub: StubGPTRepository, output: CapturingSink, notes: CapturingSink, schema: Bool = false
    ) async -> (TurnOutcome, Conversation) {
        await Task {
            var presenter = OneShotPresenter(
                useCase: GPTChatUseCase(repository: stub), notes: notes, notesStyle: .plain,
                makeRenderer: {
                    JSONLinesAnswerRenderer(
                        lines: JSONLines(output), notes: notes, notesStyle: .plain,
                        model: "m", provider: "openai")
                })
            presenter.schemaChecker = RejectingChecker()
            var conversation = Conversation(settings: ChatSettings(model: "m"))
            if schema { conversation.settings.responseSchema = ResponseSchema(schema: .object([:])) }
            let outcome = await presenter.run("Hi", in: &conversation)
            return (outcome, conversation)
        }.value
    }

    @Test func eachEventIsOneWriteOfOneLine() async {
        let output = CapturingSink()
        let notes = CapturingSink()
        let stub = StubGPTRepository([
            .answer([
                .text("one"), .reasoning("hm"), .usage(TokenUsage(promptTokens: 2, completionTokens: 1)),
                .finished(reason: "stop"),
            ])
        ])
        let (outcome, _) = await run(stub, output: output, notes: notes)
        #expect(outcome == .answered)
        #expect(
            output.writes == [
                #"{"conversation":null,"model":"m","provider":"openai","type":"start","v":1}"# + "\n",
                #"{"text":"one","type":"delta"}"# + "\n", #"{"text":"hm","type":"reasoning"}"# + "\n",
                #"{"cached_tokens":null,"completion_tokens":1,"cost_usd":null,"prompt_tokens":2,"reasoning_tokens":null,"#
                    + #""total_tokens":3,"type":"usage","web_searches":null}"#
                    + "\n",
                #"{"finish_reason":"stop","message_id":null,"type":"done"}"# + "\n",
            ])
        #expect(notes.writes.isEmpty)
    }

    @Test func theReaderGoingStopsTheAnswerAndTheLines() async {
        let output = CapturingSink(readerGoneAfter: 2)
        let notes = CapturingSink()
        // The answer never ends on its own: returning at all shows it was stopped.
        let stub = StubGPTRepository([.hang([.text("one"), .text("two"), .text("three")])])
        let (outcome, conversation) = await run(stub, output: output, notes: notes)
        #expect(outcome == .outputClosed)
        #expect(output.writes.count == 2)
        #expect(output.refused == [#"{"text":"two","type":"delta"}"# + "\n"])
        #expect(conversation.messages.last?.state == .interrupted)
        #expect(notes.writes.isEmpty)
    }

    @Test func aSchemaMismatchIsAnErrorLineAfterDoneAndOnTheNotes() async {
        let output = CapturingSink()
        let notes = CapturingSink()
        let stub = StubGPTRepository([.answer([.text("{}"), .finished(reason: "stop")])])
        let (outcome, _) = await run(stub, output: output, notes: notes, schema: true)
        #expect(outcome == .mismatched(SchemaMismatch(path: "$.x", problem: .missing("y"))))
        let line = "the answer does not match the schema at $.x: \"y\" is missing"
        #expect(
            output.writes.last
                == #"{"kind":"schema_mismatch","message":"the answer does not match the schema at $.x: \"y\" is missing","#
                + #""status":null,"type":"error"}"# + "\n")
        #expect(output.writes.dropLast().last?.hasSuffix(#""type":"done"}"# + "\n") == true)
        #expect(notes.writes == ["chat: error: \(line)\n"])
    }

    @Test func withoutASchemaNothingIsChecked() async {
        let output = CapturingSink()
        let notes = CapturingSink()
        let stub = StubGPTRepository([.answer([.text("not json"), .finished(reason: "stop")])])
        let (outcome, _) = await run(stub, output: output, notes: notes)
        #expect(outcome == .answered)
        #expect(notes.writes.isEmpty)
    }

    @Test func errorsHaveAKindAndTheirStatus() {
        let cases: [(ChatError, String, Int?)] = [
            (.unauthorized(message: ""), "unauthorized", 401),
            (.rateLimited(retryAfter: nil, quotaExceeded: true, message: ""), "quota_exceeded", 429),
            (.rateLimited(retryAfter: 1, quotaExceeded: false, message: ""), "rate_limited", 429),
            (.badRequest(status: 422, message: ""), "bad_request", 422),
            (.server(status: 502, message: ""), "server", 502),
            (.connection(.refused, message: ""), "connection", nil), (.idleTimeout(seconds: 1), "idle_timeout", nil),
            (.streamCut(""), "stream_cut", nil), (.cancelled, "cancelled", nil),
        ]
        for (error, kind, status) in cases {
            #expect(ErrorWording.kind(of: error) == kind)
            #expect(ErrorWording.status(of: error) == status)
        }
    }
}
