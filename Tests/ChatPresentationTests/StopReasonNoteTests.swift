import ChatDomain
import ChatPresentation
import ChatTestSupport
import Testing

/// An answer cut at the token limit (OpenAI's `length`, Anthropic's `max_tokens`), declined
/// (`refusal`) or paused (`pause_turn`) is followed by one note on the notes stream; the answer
/// and the outcome stay as they are, and an ordinary end says nothing.
@Suite(.timeLimit(.minutes(1))) struct StopReasonNoteTests {
    private func run(_ reason: String) async -> (TurnOutcome, output: String, notes: String) {
        let output = CapturingSink()
        let notes = CapturingSink()
        let stub = StubGPTRepository([.answer([.text("Once upon"), .finished(reason: reason)])])
        let outcome = await Task {
            let presenter = OneShotPresenter(
                useCase: GPTChatUseCase(repository: stub), notes: notes, notesStyle: .plain,
                makeRenderer: { PlainAnswerRenderer(output: output, notes: notes, notesStyle: .plain) })
            var conversation = Conversation(settings: ChatSettings(model: "m"))
            return await presenter.run("Tell a story", in: &conversation)
        }.value
        return (outcome, output.text, notes.text)
    }

    @Test(arguments: ["length", "max_tokens"])
    func anAnswerCutAtTheTokenLimitSaysSoOnce(_ reason: String) async {
        let (outcome, output, notes) = await run(reason)
        #expect(outcome == .answered)
        #expect(output == "Once upon\n")
        #expect(
            notes
                == "chat: note: the answer was cut off at the token limit (raise it with --max-tokens, or max_tokens "
                + "in the config)\n")
    }

    @Test func refusalAndPauseAreSaid() async {
        #expect(await run("refusal").notes == "chat: note: the model declined to answer (stop reason: refusal)\n")
        #expect(await run("pause_turn").notes.contains("pause_turn"))
    }

    @Test(arguments: ["stop", "end_turn", "tool_use", "stop_sequence"])
    func anOrdinaryEndSaysNothing(_ reason: String) async {
        let (outcome, _, notes) = await run(reason)
        #expect(outcome == .answered)
        #expect(notes == "")
    }

    @Test func partsSentAsTextAreSaidInOneLineBeforeTheAnswer() async {
        let output = CapturingSink()
        let notes = CapturingSink()
        let stub = StubGPTRepository([
            .answer([.sentAsText(provider: "anthropic"), .text("Noon."), .finished(reason: "end_turn")])
        ])
        let outcome = await Task {
            let presenter = OneShotPresenter(
                useCase: GPTChatUseCase(repository: stub), notes: notes, notesStyle: .plain,
                makeRenderer: { PlainAnswerRenderer(output: output, notes: notes, notesStyle: .plain) })
            var conversation = Conversation(settings: ChatSettings(model: "m"))
            return await presenter.run("Time?", in: &conversation)
        }.value
        #expect(outcome == .answered)
        #expect(output.text == "Noon.\n")
        #expect(
            notes.text
                == "chat: note: the anthropic provider cannot take some parts of this conversation as they are (tool "
                + "calls and results with no tools offered now, or another provider's calls or thinking): they were "
                + "sent to it as text\n"
        )
    }
}
