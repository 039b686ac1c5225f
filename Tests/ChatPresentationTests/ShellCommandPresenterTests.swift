import ChatDomain
import ChatPresentation
import ChatTestSupport
import Synchronization
import Testing

/// A terminal that answers from a script and records what it was asked to run and edit.
private final class ScriptedShellTerminal: ShellTerminal {
    private struct State {
        var choices: [ShellChoice]
        var edits: [String?]
        var ran: [String] = []
        var edited: [String] = []
        var asked = 0
    }

    private let state: Mutex<State>
    let status: Int32

    init(_ choices: [ShellChoice], edits: [String?] = [], status: Int32 = 0) {
        state = Mutex(State(choices: choices, edits: edits))
        self.status = status
    }

    var ran: [String] { state.withLock { $0.ran } }
    var edited: [String] { state.withLock { $0.edited } }
    var asked: Int { state.withLock { $0.asked } }

    func choose(_ question: String) async -> ShellChoice {
        state.withLock { state in
            state.asked += 1
            return state.choices.isEmpty ? .interrupt : state.choices.removeFirst()
        }
    }

    func edit(_ command: String) async -> String? {
        state.withLock { state in
            state.edited.append(command)
            return state.edits.isEmpty ? nil : state.edits.removeFirst()
        }
    }

    func run(_ command: String) async -> Int32 {
        state.withLock { $0.ran.append(command) }
        return status
    }
}

@Suite("ShellCommandPresenter", .timeLimit(.minutes(1)))
struct ShellCommandPresenterTests {
    private let output = CapturingSink(isTerminal: true)
    private let notes = CapturingSink(isTerminal: false)

    private func run(
        _ terminal: ScriptedShellTerminal?,
        answers: [StubGPTRepository.Script] = [
            .answer([.text("```bash\nfind . -size +100M\n```"), .finished(reason: "stop")]),
            .answer([.text("It lists big files."), .finished(reason: "stop")]),
        ]
    ) async -> (ShellOutcome, StubGPTRepository) {
        let stub = StubGPTRepository(answers)
        let presenter = ShellCommandPresenter(
            useCase: GPTChatUseCase(repository: stub), output: output, notes: notes, outputStyle: .plain,
            notesStyle: .plain, terminal: terminal,
            makeRenderer: { [output, notes] in PlainAnswerRenderer(output: output, notes: notes, notesStyle: .plain) })
        var conversation = Conversation(systemPrompt: "one command", settings: ChatSettings(model: "m"))
        let outcome = await presenter.run(ChatMessage(role: .user, content: "find big files"), in: &conversation)
        return (outcome, stub)
    }

    @Test func withoutATerminalTheCommandIsPrintedAndNeverRun() async {
        let (outcome, _) = await run(nil)
        #expect(outcome == .printed(command: "find . -size +100M"))
        #expect(output.text == "find . -size +100M\n")
        #expect(notes.text == "")
    }

    @Test func yRunsItAndItsStatusComesBack() async {
        let terminal = ScriptedShellTerminal([.run], status: 3)
        let (outcome, stub) = await run(terminal)
        #expect(outcome == .ran(command: "find . -size +100M", status: 3))
        #expect(terminal.ran == ["find . -size +100M"])
        #expect(output.text == "find . -size +100M\n")
        #expect(stub.requests.count == 1)
    }

    /// An escape sequence could show one command and run another: the command is shown made
    /// safe and not offered to run.
    @Test func aCommandWithControlCharactersIsShownSafeAndNeverOffered() async {
        let terminal = ScriptedShellTerminal([.run])
        let (outcome, _) = await run(
            terminal,
            answers: [.answer([.text("```bash\nrm -rf ~\u{1B}[2K\rls\n```"), .finished(reason: "stop")])])
        #expect(outcome == .failed(nil))
        #expect(terminal.asked == 0)
        #expect(terminal.ran.isEmpty)
        #expect(output.text == "rm -rf ~^[[2Kls\n")
        #expect(notes.text.contains("chat: error: the command holds control characters; it is not offered to run"))
    }

    @Test func eEditsItFirstAndAsksAgain() async {
        let terminal = ScriptedShellTerminal([.edit, .run], edits: ["find ~ -size +100M  "])
        let (outcome, _) = await run(terminal)
        #expect(terminal.edited == ["find . -size +100M"])
        #expect(terminal.ran == ["find ~ -size +100M"])
        #expect(outcome == .ran(command: "find ~ -size +100M", status: 0))
        #expect(terminal.asked == 2)
    }

    @Test func dHasTheModelDescribeItInTheSameConversationThenAsksAgain() async {
        let terminal = ScriptedShellTerminal([.describe, .decline])
        let (outcome, stub) = await run(terminal)
        #expect(outcome == .declined)
        #expect(terminal.ran.isEmpty)
        #expect(output.text == "find . -size +100M\nIt lists big files.\n")
        let describe = stub.requests.last?.messages.map { "\($0.role.rawValue): \($0.content)" }
        #expect(
            describe == [
                "system: one command", "user: find big files", "assistant: ```bash\nfind . -size +100M\n```",
                "user: Describe this command: find . -size +100M",
            ])
        #expect(notes.text == "chat: not run\n")
    }

    @Test func nothingRunsWithoutY() async {
        for (index, choices) in [[ShellChoice.decline], [.interrupt], [.edit]].enumerated() {
            let terminal = ScriptedShellTerminal(choices, edits: [nil])
            let (outcome, _) = await run(terminal)
            #expect(terminal.ran.isEmpty)
            #expect(outcome == (choices == [.decline] ? .declined : .interrupted))
            // One line says so, whichever way it was left.
            #expect(notes.text.components(separatedBy: "chat: not run\n").count == index + 2)
        }
    }

    @Test func aFailedRequestOrAnAnswerWithNoCommandIsAnError() async {
        let (failed, _) = await run(
            ScriptedShellTerminal([.run]), answers: [.answer([], failure: .unauthorized(message: "bad key"))])
        #expect(failed == .failed(.unauthorized(message: "bad key")))
        let (empty, _) = await run(ScriptedShellTerminal([.run]), answers: [.answer([.text("```\n```")])])
        #expect(empty == .failed(nil))
        #expect(notes.text.hasSuffix("chat: error: the answer held no command\n"))
    }
}
