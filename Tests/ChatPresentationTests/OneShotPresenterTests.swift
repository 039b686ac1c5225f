import ChatDomain
import ChatPresentation
import ChatTestSupport
import Testing

/// A style that writes escape codes, as on a colour terminal.
private let colourStyle = TerminalStyle(isTerminal: true, environment: ["TERM": "xterm-256color"])

/// What one `run` returned and left in its conversation.
private struct Run: Sendable {
    var outcome: TurnOutcome
    var conversation: Conversation
}

/// Starts `OneShotPresenter.run` in a task of its own, as the command does: the printer cancels
/// its current task when the output's reader goes, and that must not be the test's task.
private func startPresenting(
    _ prompt: String,
    repository: StubGPTRepository,
    output: CapturingSink,
    notes: CapturingSink,
    style: TerminalStyle = .plain
) -> Task<Run, Never> {
    Task {
        let presenter = OneShotPresenter(
            useCase: GPTChatUseCase(repository: repository), notes: notes, notesStyle: style,
            makeRenderer: { PlainAnswerRenderer(output: output, notes: notes, notesStyle: style) })
        var conversation = Conversation(settings: ChatSettings(model: "test-model"))
        let outcome = await presenter.run(prompt, in: &conversation)
        return Run(outcome: outcome, conversation: conversation)
    }
}

/// Waits for `task`; cancelling the test (its time limit) cancels the task too, so a failure cannot hang.
private func result(of task: Task<Run, Never>) async -> Run {
    await withTaskCancellationHandler {
        await task.value
    } onCancel: {
        task.cancel()
    }
}

private func present(
    _ prompt: String,
    repository: StubGPTRepository,
    output: CapturingSink,
    notes: CapturingSink,
    style: TerminalStyle = .plain
) async -> Run {
    await result(
        of: startPresenting(prompt, repository: repository, output: output, notes: notes, style: style))
}

/// Polls every 2 ms until `condition` holds or the test is cancelled.
private func waitUntil(_ condition: () -> Bool) async {
    while !condition() && !Task.isCancelled {
        try? await Task.sleep(for: .milliseconds(2))
    }
}

@Suite("OneShotPresenter", .timeLimit(.minutes(1)))
struct OneShotPresenterTests {
    // MARK: Answer text

    @Test func textPiecesAreWrittenInOrderEachInItsOwnWrite() async {
        let output = CapturingSink()
        let notes = CapturingSink()
        let stub = StubGPTRepository([
            .answer([.text("Hel"), .text("lo, "), .text("world"), .finished(reason: "stop")])
        ])

        let run = await present("Hi", repository: stub, output: output, notes: notes)

        #expect(run.outcome == .answered)
        #expect(output.writes == ["Hel", "lo, ", "world", "\n"])
        #expect(notes.writes.isEmpty)
    }

    @Test func textReachesTheOutputWhileTheAnswerIsStillStreaming() async {
        let output = CapturingSink()
        let notes = CapturingSink()
        // The answer never ends on its own: what is written before the cancel was written as it arrived.
        let stub = StubGPTRepository([.hang([.text("First"), .text(" words")])])
        let task = startPresenting("Hi", repository: stub, output: output, notes: notes)

        await waitUntil { output.writes.count >= 2 }
        let writtenWhileStreaming = output.writes
        task.cancel()
        let run = await result(of: task)

        #expect(writtenWhileStreaming == ["First", " words"])
        #expect(run.outcome == .interrupted)
        #expect(output.writes == ["First", " words", "\n"])
        #expect(notes.writes.isEmpty)
    }

    @Test(
        arguments: [
            (["Hello"], "Hello\n"),
            (["Hello\n"], "Hello\n"),
            (["One\n", "Two"], "One\nTwo\n"),
            (["One", "\n"], "One\n"),
            (["Trailing blank line\n\n"], "Trailing blank line\n\n"),
        ] as [([String], String)])
    func finalNewlineIsAddedOnlyWhenTheAnswerLacksOne(pieces: [String], expected: String) async {
        let output = CapturingSink()
        let stub = StubGPTRepository([.answer(pieces.map { .text($0) } + [.finished(reason: "stop")])])

        let run = await present("Hi", repository: stub, output: output, notes: CapturingSink())

        #expect(run.outcome == .answered)
        #expect(output.text == expected)
    }

    @Test func answerWithoutTextWritesNothing() async {
        let output = CapturingSink()
        let stub = StubGPTRepository([.answer([.finished(reason: "stop")])])

        let run = await present("Hi", repository: stub, output: output, notes: CapturingSink())

        #expect(run.outcome == .answered)
        #expect(output.writes.isEmpty)
    }

    // MARK: Reasoning

    @Test func reasoningGoesToTheNotesTerminalNeverToTheOutput() async {
        let output = CapturingSink(isTerminal: true)
        let notes = CapturingSink(isTerminal: true)
        let stub = StubGPTRepository([.answer([.reasoning("Six times "), .reasoning("seven"), .text("42")])])

        let run = await present("6 x 7?", repository: stub, output: output, notes: notes)

        #expect(run.outcome == .answered)
        #expect(output.text == "42\n")
        #expect(notes.text == "Six times seven\n")
    }

    @Test func reasoningIsDimmedOnAColourTerminal() async {
        let notes = CapturingSink(isTerminal: true)
        let stub = StubGPTRepository([.answer([.reasoning("Hmm"), .text("42")])])

        _ = await present("Q", repository: stub, output: CapturingSink(), notes: notes, style: colourStyle)

        #expect(notes.writes == [colourStyle.dim("Hmm"), "\n"])
        #expect(notes.text.contains("\u{1B}["))
    }

    @Test func reasoningReachesTheTerminalWithItsEscapeSequencesMadeSafe() async {
        let notes = CapturingSink(isTerminal: true)
        let stub = StubGPTRepository([.answer([.reasoning("think\u{1B}]52;c;cm0gLXJm\u{07}"), .text("42")])])

        _ = await present("Q", repository: stub, output: CapturingSink(), notes: notes)

        #expect(notes.text == "think^[]52;c;cm0gLXJm^G\n")
    }

    @Test func reasoningIsDroppedWhenNotesIsNotATerminal() async {
        let output = CapturingSink()
        let notes = CapturingSink(isTerminal: false)
        let stub = StubGPTRepository([.answer([.reasoning("Six times seven"), .text("42")])])

        let run = await present("6 x 7?", repository: stub, output: output, notes: notes, style: colourStyle)

        #expect(run.outcome == .answered)
        #expect(output.text == "42\n")
        #expect(notes.writes.isEmpty)
    }

    // MARK: Failure

    @Test func failurePrintsOneErrorLineAndReturnsFailed() async {
        let output = CapturingSink()
        let notes = CapturingSink()
        let error = ChatError.server(status: 502, message: "bad gateway")
        let stub = StubGPTRepository([.answer([], failure: error)])

        let run = await present("Hi", repository: stub, output: output, notes: notes)

        #expect(run.outcome == .failed(error))
        #expect(notes.writes == ["chat: error: 502 server error: bad gateway\n"])
        #expect(output.writes.isEmpty)
    }

    @Test func errorLineIsColouredForAColourTerminal() async {
        let notes = CapturingSink(isTerminal: true)
        let stub = StubGPTRepository([.answer([], failure: .connection(.other, message: "refused"))])

        _ = await present("Hi", repository: stub, output: CapturingSink(), notes: notes, style: colourStyle)

        #expect(notes.writes == [colourStyle.error("chat: error: connection failed: refused") + "\n"])
        #expect(notes.text.hasPrefix("\u{1B}["))
    }

    @Test func partialTextThenFailureKeepsTheTextAndEndsItsLine() async {
        let output = CapturingSink()
        let notes = CapturingSink()
        let error = ChatError.streamCut("connection reset")
        let stub = StubGPTRepository([.answer([.text("Half "), .text("an answer")], failure: error)])

        let run = await present("Hi", repository: stub, output: output, notes: notes)

        #expect(run.outcome == .failed(error))
        #expect(output.text == "Half an answer\n")
        #expect(
            notes.writes == [
                "chat: error: the answer broke off after 14 characters: the answer was cut off: connection reset (the "
                    + "text shown is kept; chat -c, then /retry, asks again)\n"
            ])
    }

    @Test func aRequestNoticeIsOneNoteLineOnAPipeTooAndTheAnswerStaysClean() async {
        let output = CapturingSink()
        let notes = CapturingSink()
        let stub = StubGPTRepository([
            .answer([
                .notice(.budgetAsEffort(tokens: 2048, effort: .low, model: "claude-opus-4-7")), .reasoning("Hmm"),
                .text("Hi"), .finished(reason: "stop"),
            ])
        ])

        let run = await present("Hi", repository: stub, output: output, notes: notes)

        #expect(run.outcome == .answered)
        #expect(output.text == "Hi\n")
        #expect(
            notes.text
                == "chat: note: claude-opus-4-7 takes an effort, not a thinking budget: --thinking 2048 was asked for "
                + "as --effort low\n")
    }

    @Test func anAnswerWithNoTextIsSaidToBeEmptyOnce() async {
        // LiteLLM 1.108.7 answered so through /v1/messages: "content": [], 5 output tokens.
        let notes = CapturingSink()
        let stub = StubGPTRepository([
            .answer([.finished(reason: "end_turn"), .usage(TokenUsage(promptTokens: 9, completionTokens: 5))]),
            .answer([.text("Fine."), .finished(reason: "end_turn")]),
        ])

        let empty = await present("Hi", repository: stub, output: CapturingSink(), notes: notes)
        #expect(empty.outcome == .answered)
        #expect(notes.text == "chat: note: the server's answer has no text (stop reason: end_turn)\n")

        let quiet = CapturingSink()
        _ = await present("Hi", repository: stub, output: CapturingSink(), notes: quiet)
        #expect(quiet.writes.isEmpty)
    }

    @Test func errorLineAfterReasoningStartsOnALineOfItsOwn() async {
        let notes = CapturingSink(isTerminal: true)
        let stub = StubGPTRepository([.answer([.reasoning("Hmm")], failure: .streamError(message: "overloaded"))])

        let run = await present("Hi", repository: stub, output: CapturingSink(), notes: notes)

        #expect(run.outcome == .failed(.streamError(message: "overloaded")))
        #expect(notes.text == "Hmm\nchat: error: the server reported an error: overloaded\n")
    }

    // MARK: Interruption

    @Test func cancelledAnswerIsInterruptedWithoutAnErrorLine() async {
        let output = CapturingSink()
        let notes = CapturingSink()
        let stub = StubGPTRepository([.answer([.text("Par")], failure: .cancelled)])

        let run = await present("Hi", repository: stub, output: output, notes: notes)

        #expect(run.outcome == .interrupted)
        #expect(output.text == "Par\n")
        #expect(notes.writes.isEmpty)
    }

    @Test func outputReaderGoneStopsTheStreamQuietly() async {
        let output = CapturingSink(readerGoneAfter: 1)
        let notes = CapturingSink(isTerminal: true)
        // The answer never ends on its own: `run` returning at all shows the stream was stopped.
        let stub = StubGPTRepository([.hang([.text("one"), .text(" two"), .text(" three")])])

        let run = await present("Hi", repository: stub, output: output, notes: notes)

        #expect(run.outcome == .outputClosed)
        #expect(output.writes == ["one"])
        // Nothing more is tried once the reader has gone, not even the final newline.
        #expect(output.refused == [" two"])
        #expect(notes.writes.isEmpty)
        #expect(run.conversation.messages.last?.state == .interrupted)
    }

    @Test func outputReaderGoneBeforeAnyTextIsStillOutputClosed() async {
        let output = CapturingSink(readerGoneAfter: 0)
        let notes = CapturingSink()
        let stub = StubGPTRepository([.hang([.text("one")])])

        let run = await present("Hi", repository: stub, output: output, notes: notes)

        #expect(run.outcome == .outputClosed)
        #expect(output.writes.isEmpty)
        #expect(output.refused == ["one"])
        #expect(notes.writes.isEmpty)
    }
}
