import ChatDomain
import ChatPresentation
import ChatTestSupport
import Synchronization
import Testing

private let model = "test-model"
private let systemPrompt = "Be brief."
private let escape = "\u{1B}"

/// An answer of one piece of text, with usage when given.
private func says(_ text: String, usage: TokenUsage? = nil) -> StubGPTRepository.Script {
    .answer([.text(text)] + (usage.map { [ChatEvent.usage($0)] } ?? []) + [.finished(reason: "stop")])
}

/// A request's messages as "role: content" lines.
private func transcript(_ request: ChatRequest?) -> [String] {
    request?.messages.map { "\($0.role.rawValue): \($0.content)" } ?? []
}

/// The plain prompt for `details` ("test-model · 1 turn · 42 tokens").
private func prompt(_ details: String) -> String {
    details + " › "
}

extension Array {
    /// The element at `index`, or nil past the end (an expectation fails instead of the run crashing).
    fileprivate func at(_ index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}

/// Polls every 2 ms until `condition` holds or the task is cancelled.
private func waitUntil(_ condition: () -> Bool) async {
    while !condition() && !Task.isCancelled {
        try? await Task.sleep(for: .milliseconds(2))
    }
}

/// A REPL over `GPTChatUseCase` and a `StubGPTRepository`, fed by a `ScriptedLineReader`,
/// writing to capturing sinks that are not terminals (unless `terminal`), styled as `chat` styles them.
private final class Harness {
    let stub: StubGPTRepository
    let reader: ScriptedLineReader
    let output: CapturingSink
    let notes: CapturingSink
    let archive = MemoryConversationArchive()
    let control = SessionControl()
    let repl: REPL
    /// Tasks started by `whenReading`, cancelled once `run` returns.
    private var helpers: [Task<Void, Never>] = []

    init(
        _ inputs: [LineInput],
        answers: [StubGPTRepository.Script] = [says("OK")],
        systemPrompt: String? = systemPrompt,
        editor: (any TextEditor)? = nil,
        terminal: Bool = false,
        given: ChatSettings = ChatSettings(model: ""),
        roles: [PromptRole] = [],
        role: PromptRole? = nil,
        attachmentReader: (any AttachmentReader)? = nil,
        attachments: Attachments = Attachments()
    ) {
        stub = StubGPTRepository(answers)
        reader = ScriptedLineReader(inputs)
        output = CapturingSink(isTerminal: terminal)
        notes = CapturingSink(isTerminal: terminal)
        let environment = ["TERM": "xterm-256color"]
        let parts = REPL.Parts(
            useCase: GPTChatUseCase(repository: stub), reader: reader, output: output, notes: notes,
            outputStyle: TerminalStyle(isTerminal: output.isTerminal, environment: environment),
            notesStyle: TerminalStyle(isTerminal: notes.isTerminal, environment: environment),
            archive: archive, editor: editor, control: control,
            conversationSwitch: ConversationSwitch(
                configured: ChatSettings(model: model, sampling: [.maxTokens: .wholeNumber(99)]), given: given),
            roles: roles, role: role,
            attachmentReader: attachmentReader, attachments: attachments)
        repl = REPL(
            parts: parts, conversation: Conversation(systemPrompt: systemPrompt, settings: ChatSettings(model: model)))
    }

    convenience init(
        lines: [String],
        answers: [StubGPTRepository.Script] = [says("OK")],
        systemPrompt: String? = systemPrompt,
        editor: (any TextEditor)? = nil
    ) {
        self.init(lines.map { .line($0) }, answers: answers, systemPrompt: systemPrompt, editor: editor)
    }

    var requests: [ChatRequest] { stub.requests }
    var conversation: Conversation { repl.conversation }

    /// Notes written as whole lines, without their newline.
    var noteLines: [String] {
        notes.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Output lines, without their newline.
    var outputLines: [String] {
        output.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Runs the REPL. Should the test be cancelled (its time limit), the session is asked to end
    /// with status -1 and every answer stream is ended, so a failing test cannot hang.
    func run(firstMessage: String? = nil, endAfterFirst: Bool = false) async -> Int32 {
        let (control, stub) = (control, stub)
        let status = await withTaskCancellationHandler {
            await repl.run(firstMessage: firstMessage, endAfterFirst: endAfterFirst)
        } onCancel: {
            control.requestExit(status: -1)
            stub.abort()
        }
        helpers.forEach { $0.cancel() }
        return status
    }

    /// When `line` is read, starts a task that waits until `text` has reached the output, then
    /// runs `action` with the session control, as a signal would from another thread.
    func whenReading(
        _ line: String, outputContains text: String, then action: @escaping @Sendable (SessionControl) async -> Void
    ) {
        let (output, control) = (output, control)
        reader.whenReading(line) { [unowned self] in
            helpers.append(
                Task {
                    await waitUntil { output.text.contains(text) }
                    await action(control)
                })
        }
    }
}

@Suite("REPL", .timeLimit(.minutes(1)))
struct REPLTests {
    // MARK: Conversation

    @Test func laterRequestsCarryTheSystemPromptAndEveryEarlierTurn() async {
        let session = Harness(lines: ["Hi", "And then?"], answers: [says("Hello"), says("Then this")])

        let status = await session.run()

        #expect(status == 0)
        #expect(session.requests.count == 2)
        #expect(transcript(session.requests.first) == ["system: Be brief.", "user: Hi"])
        #expect(
            transcript(session.requests.last) == [
                "system: Be brief.", "user: Hi", "assistant: Hello", "user: And then?",
            ])
        #expect(session.requests.allSatisfy { $0.settings.model == model })
        #expect(session.output.text == "Hello\nThen this\n")
        #expect(session.notes.writes.isEmpty)
    }

    @Test func eachSentLineIsRememberedForRecall() async {
        let session = Harness(lines: ["Hi", "/model"])

        _ = await session.run()

        #expect(session.reader.remembered == ["Hi", "/model"])
    }

    // MARK: Prompt

    @Test func promptShowsModelTurnsAndReportedTokens() async {
        let session = Harness(
            lines: ["Hi", "Again"],
            answers: [
                says("Hello", usage: TokenUsage(promptTokens: 30, completionTokens: 12)),
                says("Hello again", usage: TokenUsage(promptTokens: 1200, completionTokens: 34)),
            ])

        _ = await session.run()

        #expect(
            session.reader.prompts == [
                prompt("test-model · 0 turns"),
                prompt("test-model · 1 turn · 42 tokens"),
                prompt("test-model · 2 turns · 1.2k tokens"),
            ])
    }

    @Test func promptShowsTheCachedTokensReadAndWrittenWhenTheServerReportedAny() async {
        let session = Harness(
            lines: ["Hi", "Again", "More"],
            answers: [
                says("Hello", usage: TokenUsage(promptTokens: 3000, completionTokens: 12, cacheWriteTokens: 2900)),
                says(
                    "Hello again",
                    usage: TokenUsage(
                        promptTokens: 3100, completionTokens: 34, cacheReadTokens: 2900, cacheWriteTokens: 0)),
                says("OK", usage: TokenUsage(promptTokens: 3200, completionTokens: 2, cacheReadTokens: 0)),
            ])

        _ = await session.run()

        #expect(
            session.reader.prompts == [
                prompt("test-model · 0 turns"),
                prompt("test-model · 1 turn · 3.0k tokens · cache 2.9k written"),
                prompt("test-model · 2 turns · 3.1k tokens · cache 2.9k read"),
                prompt("test-model · 3 turns · 3.2k tokens"),
            ])
    }

    @Test func promptShowsWhatTheConversationCostOnceACostIsKnown() async {
        var priced = TokenUsage(promptTokens: 30, completionTokens: 12)
        priced.costUSD = 0.006
        var unpriced = TokenUsage(promptTokens: 40, completionTokens: 2)
        unpriced.costUSD = nil
        var again = TokenUsage(promptTokens: 50, completionTokens: 2)
        again.costUSD = 0.0005
        let session = Harness(
            lines: ["Hi", "Again", "More"],
            answers: [says("Hello", usage: unpriced), says("Hello again", usage: priced), says("OK", usage: again)])

        _ = await session.run()

        #expect(
            session.reader.prompts == [
                prompt("test-model · 0 turns"),
                prompt("test-model · 1 turn · 42 tokens"),
                prompt("test-model · 2 turns · 42 tokens · $0.00600"),
                prompt("test-model · 3 turns · 52 tokens · $0.00650"),
            ])
    }

    @Test func promptEstimatesTokensWhenTheServerReportsNone() async {
        // "Be brief." (9) + "Hi" (2) + "Hello there" (11) = 22 characters: about 6 tokens.
        let session = Harness(lines: ["Hi"], answers: [says("Hello there")])

        _ = await session.run()

        #expect(session.reader.prompts == [prompt("test-model · 0 turns"), prompt("test-model · 1 turn · ~6 tokens")])
    }

    @Test func promptWithoutEscapeCodesWhenTheSinksAreNotTerminals() async {
        let session = Harness([.line("Hi")])

        _ = await session.run()

        #expect(session.reader.prompts.allSatisfy { !$0.contains(escape) })
    }

    @Test func promptIsStyledWhenTheOutputIsAColourTerminal() async {
        // The counterpart of the test above: the REPL does style what it shows on a terminal.
        let session = Harness([.line("Hi")], terminal: true)

        _ = await session.run()

        #expect(session.reader.prompts.count == 2)
        #expect(session.reader.prompts.allSatisfy { $0.contains(escape) })
    }

    // MARK: Slash commands

    @Test func reasoningIsHiddenAndShownAgainFromTheNextAnswer() async {
        let thinks = { (n: Int) -> StubGPTRepository.Script in
            .answer([.reasoning("thought \(n)"), .text("answer \(n)"), .finished(reason: "stop")])
        }
        // Reasoning is shown only on a terminal.
        let session = Harness(
            ["one", "/reasoning off", "two", "/reasoning", "/reasoning on", "three", "/reasoning sideways"].map {
                .line($0)
            }, answers: [thinks(1), thinks(2), thinks(3)], terminal: true)

        _ = await session.run()

        #expect(session.output.text.contains("answer 1") && session.output.text.contains("answer 3"))
        #expect(session.notes.text.contains("thought 1"))
        #expect(!session.notes.text.contains("thought 2"), "hidden after /reasoning off")
        #expect(session.notes.text.contains("thought 3"))
        for said in [
            "reasoning will be hidden", "reasoning is hidden (/reasoning on or off)", "reasoning will be shown",
            #"/reasoning takes on or off, not "sideways""#,
        ] {
            #expect(session.notes.text.contains(said), "\(said)")
        }
        #expect(session.requests.count == 3)
    }

    @Test func helpListsEveryCommandOnALineOfItsOwnInTheOutput() async {
        let session = Harness(lines: ["/help"])

        _ = await session.run()

        let firstWords = session.outputLines.map { $0.split(separator: " ").first.map(String.init) ?? "" }
        let helpLines = session.outputLines.filter { $0.hasPrefix("  /") }
        #expect(helpLines.count == 31, "one line per command")
        // Every name Tab offers is on a help line: the command's own, or named in its summary.
        for name in REPL.commandNames {
            #expect(helpLines.contains { $0.contains(name) }, "\(name) is in /help")
        }
        for name in ["/help", "/exit", "/model", "/resume", "/title", "/copy", "/answers", "/fork", "/schema"] {
            #expect(firstWords.count { $0 == name } == 1, "\(name) is listed once, at the start of a line")
        }
        #expect(REPL.commandNames.count == 32)
        #expect(session.notes.writes.isEmpty)
        #expect(session.requests.isEmpty)
    }

    @Test func tabOffersCommandNamesThenTheCommandsOwnCompletions() {
        #expect(REPL.completions(for: "/mo") == ["/model", "/models"])
        #expect(REPL.completions(for: "/q") == ["/quit"])
        #expect(REPL.completions(for: "/nothing") == [])
        #expect(REPL.completions(for: "hello") == [])
        #expect(REPL.completions(for: "/model gpt") == [])
    }

    @Test(arguments: ["/exit", "/quit", "/q", "/EXIT"])
    func exitCommandEndsWithStatusZeroAndReadsNothingMore(command: String) async {
        let session = Harness(lines: ["Hi", command, "never read"])

        let status = await session.run()

        #expect(status == 0)
        #expect(session.reader.unread == [.line("never read")])
        #expect(session.reader.prompts.count == 2)
        #expect(session.requests.count == 1)
    }

    @Test(arguments: ["exit", "quit", "  exit ", "quit\t"])
    func aLineThatIsExitOrQuitLeavesAsLlmAndShellGptUsersExpect(line: String) async {
        let session = Harness(lines: ["Hi", line, "never read"])

        let status = await session.run()

        #expect(status == 0)
        #expect(session.reader.unread == [.line("never read")])
        #expect(session.requests.count == 1)
        #expect(session.reader.remembered == ["Hi"])
    }

    @Test func exitOrQuitInABlockOrWithMoreWordsIsAMessage() async {
        let session = Harness(lines: ["\"\"\"", "exit", "\"\"\"", "quit now", "Exit"], answers: [says("OK")])

        let status = await session.run()

        #expect(status == 0)
        #expect(session.requests.map { $0.messages.last?.content } == ["exit", "quit now", "Exit"])
    }

    // MARK: Roles

    private static let roles = [
        PromptRole(
            name: "terse", prompt: "Be terse.",
            settings: ChatSettings(model: "terse-model", sampling: [.temperature: .number(0.1)])),
        PromptRole(name: "review", prompt: "Review this:\n{{input}}"),
        PromptRole(name: "deep", prompt: "Think.", setsForTheRun: ["profile", "thinking_budget"]),
    ]

    @Test func roleTakesTheSystemPromptAndSettingsAndShowsInThePrompt() async {
        let session = Harness(["/role", "/role terse", "Hi", "/role nope"].map { .line($0) }, roles: Self.roles)

        _ = await session.run()

        #expect(session.outputLines == ["role: (none)", "roles: terse, review, deep", "OK"])
        let request = session.requests.first
        #expect(transcript(request) == ["system: Be terse.", "user: Hi"])
        #expect(request?.settings.model == "terse-model")
        #expect(request?.settings.sampling[.temperature] == .number(0.1))
        #expect(session.reader.prompts.last == prompt("terse-model · terse · 1 turn · ~4 tokens"))
        #expect(
            session.noteLines == [
                "role terse: its system prompt is set; model terse-model",
                "chat: error: no role named nope; /role lists them",
            ])
    }

    @Test func aRoleWhoseSettingsAreTheRunsSaysThatTheyApplyFromTheStartOnly() async {
        let session = Harness(["/role deep", "Hi"].map { .line($0) }, roles: Self.roles)

        _ = await session.run()

        #expect(transcript(session.requests.first) == ["system: Think.", "user: Hi"])
        #expect(
            session.noteLines == [
                "role deep: its system prompt is set; what it sets for a whole run applies from the start only "
                    + "(chat -r deep): profile, thinking_budget"
            ])
    }

    @Test func theRoleTheRunStartedWithSaysNothingOfTheRunsSettings() async {
        let session = Harness([.line("/role deep")], roles: Self.roles, role: Self.roles[2])

        _ = await session.run()

        #expect(session.noteLines == ["role deep: its system prompt is set"])
    }

    @Test func aTemplateRoleTakesTheNextMessageOnly() async {
        let session = Harness(["/role review", "-a\n+b", "and why?"].map { .line($0) }, roles: Self.roles)

        _ = await session.run()

        #expect(session.requests.map { $0.messages.last?.content } == ["Review this:\n-a\n+b", "and why?"])
        // A template is no system prompt: the one there was stays.
        #expect(session.requests.first?.messages.first?.content == systemPrompt)
    }

    @Test func theRoleTheSessionStartsInFillsTheFirstMessage() async {
        let session = Harness([.line("second")], roles: Self.roles, role: Self.roles[1])

        _ = await session.run(firstMessage: "piped diff")

        #expect(session.requests.map { $0.messages.last?.content } == ["Review this:\npiped diff", "second"])
    }

    // MARK: Files

    /// Attaches `name.txt` holding "text of name" for each path `name`; `dir` is a directory,
    /// `big` is over the limit of 40 bytes.
    private struct StubAttachmentReader: AttachmentReader {
        func read(_ paths: [String], adding existing: Attachments) -> Result<Attachments, AttachmentError> {
            var all = existing
            for path in paths {
                if path == "dir" { return .failure(.directory(path: path)) }
                if path.hasSuffix(".png") {
                    all.images.append(
                        ImageAttachment(
                            path: "/" + path, mimeType: "image/png", byteCount: 2048, sha256: "ab", data: [1]))
                } else {
                    all.texts.append(
                        TextAttachment(
                            path: path, text: path == "big" ? String(repeating: "x", count: 50) : "text of \(path)"))
                }
            }
            return all.textByteCount > 40 ? .failure(.tooMuchText(bytes: all.textByteCount, limit: 40)) : .success(all)
        }
    }

    @Test func fileAttachesToTheNextMessageOnlyAndThePromptSaysSo() async {
        let session = Harness(
            ["/file a.txt cat.png", "/files", "/file dir", "/file big", "Look", "Again"].map { .line($0) },
            attachmentReader: StubAttachmentReader())

        _ = await session.run()

        #expect(session.requests.count == 2)
        let first = session.requests.first?.messages.last
        #expect(first?.content == "Look\n\na.txt\n```\ntext of a.txt\n```")
        #expect(first?.images.map(\.path) == ["/cat.png"])
        #expect(session.requests.last?.messages.last?.content == "Again")
        #expect(session.requests.last?.messages.last?.images == [])
        #expect(session.outputLines.prefix(2) == ["a.txt  13 bytes of text", "/cat.png  2 KiB image/png"])
        #expect(session.reader.prompts.contains(prompt("test-model · 0 turns · +2 files")))
        #expect(session.reader.prompts.last == prompt("test-model · 2 turns · ~13 tokens"))
        #expect(
            session.noteLines == [
                "attached 2 files to the next message (2 files in all; /files lists them)",
                "chat: error: dir is a directory: attach its files with a glob, e.g. -f 'dir/*' (quoted, chat expands it); nothing attached",
                "chat: error: the attached files hold 63 bytes of text, over the 40 bytes a message may carry (max_file_bytes in the config); nothing attached",
            ])
    }

    @Test func filesClearDropsThemAndFilesFromTheCommandLineGoWithTheFirstMessage() async {
        let attached = Attachments(texts: [TextAttachment(path: "notes.txt", text: "N")])
        let session = Harness(
            ["/files", "/files clear", "/files", "Hi"].map { .line($0) }, attachmentReader: StubAttachmentReader(),
            attachments: attached)

        _ = await session.run()

        #expect(session.outputLines.first == "notes.txt  1 byte of text")
        #expect(session.requests.first?.messages.last?.content == "Hi")
        #expect(
            session.noteLines == ["dropped 1 file", "nothing attached; /file PATH attaches a file to the next message"])
    }

    @Test func aResumedConversationWhoseImageIsGoneSaysSoOnce() async {
        var conversation = Conversation(settings: ChatSettings(model: model))
        let gone = ImageAttachment(path: "/gone.png", mimeType: "image/png", byteCount: 1, sha256: "ab")
        conversation.append(ChatMessage(role: .user, content: "see", images: [gone]))
        conversation.append(ChatMessage(role: .assistant, content: "a cat"))
        let session = Harness(lines: ["/load saved.json", "and now?"])
        try? session.archive.save(conversation, to: "saved.json")

        _ = await session.run()

        #expect(
            session.noteLines.contains(
                "(/gone.png is no longer available as attached; the requests carry a note in its place)"))
        #expect(session.requests.first?.messages.first?.images == [gone])
    }

    @Test func clearEmptiesTheConversationButKeepsTheSystemPrompt() async {
        let session = Harness(lines: ["Hi", "/clear", "Fresh start"])

        _ = await session.run()

        #expect(transcript(session.requests.last) == ["system: Be brief.", "user: Fresh start"])
        #expect(session.conversation.systemPrompt == systemPrompt)
        #expect(session.reader.prompts.at(2) == prompt("test-model · 0 turns"))
        #expect(session.noteLines == ["new conversation (the system prompt stays)"])
    }

    @Test func modelWithoutANameShowsTheModel() async {
        let session = Harness(lines: ["/model"])

        _ = await session.run()

        #expect(session.output.text == "test-model\n")
        #expect(session.notes.writes.isEmpty)
    }

    @Test func modelWithANameSwitchesTheNextRequest() async {
        let session = Harness(lines: ["Hi", "/model other-model", "/model", "Again"])

        _ = await session.run()

        #expect(session.requests.map(\.settings.model) == [model, "other-model"])
        #expect(session.outputLines == ["OK", "other-model", "OK"])
        #expect(session.noteLines == ["model: other-model"])
        #expect(session.reader.prompts.at(2) == prompt("other-model · 1 turn · ~4 tokens"))
    }

    @Test func modelsListsTheServersModelsAndMarksTheCurrentOne() async {
        let session = Harness(lines: ["/models"])
        session.stub.setModels(.success([ModelInfo(id: "alpha"), ModelInfo(id: model), ModelInfo(id: "omega")]))

        _ = await session.run()

        #expect(session.output.text == "  alpha\n* test-model\n  omega\n")
        #expect(session.notes.writes.isEmpty)
    }

    @Test func modelsFailurePrintsOneErrorLine() async {
        let session = Harness(lines: ["/models"])
        session.stub.setModels(.failure(.unauthorized(message: "bad key")))

        _ = await session.run()

        #expect(session.noteLines.count == 1)
        #expect(session.noteLines.first?.hasPrefix("chat: error: 401 unauthorized: bad key") == true)
        #expect(session.output.writes.isEmpty)
    }

    @Test func systemWithoutTextShowsTheSystemPrompt() async {
        let session = Harness(lines: ["/system"])

        _ = await session.run()

        #expect(session.output.text == "Be brief.\n")
    }

    @Test func systemWithoutTextSaysWhenThereIsNone() async {
        let session = Harness(lines: ["/system"], systemPrompt: nil)

        _ = await session.run()

        #expect(session.output.text == "(no system prompt)\n")
    }

    @Test func systemWithTextBecomesTheNextRequestsFirstMessage() async {
        let session = Harness(lines: ["Hi", "/system Answer in French.", "Again"])

        _ = await session.run()

        #expect(transcript(session.requests.first).first == "system: Be brief.")
        #expect(
            transcript(session.requests.last) == [
                "system: Answer in French.", "user: Hi", "assistant: OK", "user: Again",
            ])
        #expect(session.noteLines == ["system prompt set"])
    }

    @Test func historyShowsBothSidesAndMarksFailedAndInterruptedMessages() async {
        let session = Harness(
            lines: ["Hi", "Fails", "Cut", "/history"],
            answers: [
                says("Hello"),
                .answer([], failure: .server(status: 503, message: "busy")),
                .answer([.text("Half")], failure: .streamCut("reset")),
            ])

        _ = await session.run()

        #expect(
            session.outputLines.suffix(6) == [
                "system: Be brief.",
                "you [1]: Hi",
                "assistant: Hello",
                "you [2]: Fails [failed: not sent again unless /retry]",
                "you [3]: Cut",
                "assistant: Half [interrupted]",
            ])
    }

    @Test func historyOfAnEmptyConversationSaysSo() async {
        let session = Harness(lines: ["/history"], systemPrompt: nil)

        _ = await session.run()

        #expect(session.output.writes.isEmpty)
        #expect(session.noteLines == ["no messages yet"])
    }

    @Test func retryAfterAFailureResendsTheSameMessageAndReplacesIt() async {
        let session = Harness(
            lines: ["Hi", "/retry"],
            answers: [.answer([], failure: .connection(.other, message: "refused")), says("Hello")])

        _ = await session.run()

        #expect(session.requests.count == 2)
        #expect(transcript(session.requests.last) == ["system: Be brief.", "user: Hi"])
        #expect(
            session.conversation.messages == [
                ChatMessage(role: .user, content: "Hi"), ChatMessage(role: .assistant, content: "Hello"),
            ])
        #expect(session.output.text == "Hello\n")
    }

    @Test func retryReplacesTheLastAnswer() async {
        let session = Harness(lines: ["Hi", "/retry", "Next"], answers: [says("First try"), says("Second try")])

        _ = await session.run()

        #expect(transcript(session.requests.at(1)) == ["system: Be brief.", "user: Hi"])
        #expect(
            transcript(session.requests.at(2)) == [
                "system: Be brief.", "user: Hi", "assistant: Second try", "user: Next",
            ])
    }

    @Test func retryWithNoMessagesSaysThereIsNothingToRetry() async {
        let session = Harness(lines: ["/retry"])

        _ = await session.run()

        #expect(session.requests.isEmpty)
        #expect(session.noteLines == ["nothing to retry yet"])
        #expect(session.output.writes.isEmpty)
    }

    @Test func undoDropsTheLastExchangeFromLaterRequests() async {
        let session = Harness(
            lines: ["First", "Second", "/undo", "Third"], answers: [says("One"), says("Two"), says("Three")])

        _ = await session.run()

        #expect(
            transcript(session.requests.last) == [
                "system: Be brief.", "user: First", "assistant: One", "user: Third",
            ])
        #expect(session.noteLines == ["dropped the last exchange"])
    }

    @Test func undoWithNoMessagesSaysThereIsNothingToUndo() async {
        let session = Harness(lines: ["/undo"])

        _ = await session.run()

        #expect(session.noteLines == ["nothing to undo"])
    }

    @Test func editSendsWhatWasWrittenInTheEditor() async {
        let editor = StubTextEditor(writing: "Line one\nline two")
        let session = Harness(lines: ["/edit"], editor: editor)

        _ = await session.run()

        #expect(editor.openedWith == [""])
        #expect(transcript(session.requests.last) == ["system: Be brief.", "user: Line one\nline two"])
        #expect(session.reader.remembered.last == "Line one\nline two")
        #expect(session.output.text == "OK\n")
    }

    @Test func editWithoutAnEditorPrintsOneErrorLine() async {
        let session = Harness(lines: ["/edit"], editor: nil)

        _ = await session.run()

        #expect(session.requests.isEmpty)
        #expect(session.noteLines.count == 1)
        #expect(session.noteLines.first?.hasPrefix("chat: error: /edit needs") == true)
    }

    @Test func editorFailurePrintsItsReasonAndSendsNothing() async {
        let editor = StubTextEditor(.failure(EditorFailure("the editor (vi) failed; nothing sent")))
        let session = Harness(lines: ["/edit"], editor: editor)

        _ = await session.run()

        #expect(session.requests.isEmpty)
        #expect(session.noteLines == ["chat: error: the editor (vi) failed; nothing sent"])
    }

    @Test func editNAsksQuestionNAgainFromThereAndTheTurnsAfterItLeave() async {
        let editor = StubTextEditor(writing: "Second, edited")
        let session = Harness(
            lines: ["First", "Second", "Third", "/edit 2"], answers: [says("A1"), says("A2"), says("A3"), says("A2'")],
            editor: editor)

        _ = await session.run()

        #expect(editor.openedWith == ["Second"])
        #expect(
            transcript(session.requests.last) == [
                "system: Be brief.", "user: First", "assistant: A1", "user: Second, edited",
            ])
        #expect(session.conversation.messages.map(\.content) == ["First", "A1", "Second, edited", "A2'"])
    }

    @Test func editNOfAQuestionThereIsNotSaysHowManyThereAre() async {
        let session = Harness(lines: ["First", "/edit 3", "/edit x"], editor: StubTextEditor(writing: "never"))

        _ = await session.run()

        #expect(session.requests.count == 1)
        #expect(
            session.noteLines == [
                "chat: error: no question 3: this conversation has 1 question (/history numbers them)",
                "chat: error: give a question's number: /edit N (/history numbers them)",
            ])
    }

    @Test func forkGoesOnInANewConversationWithTheFirstQuestionsAndKeepsSettings() async {
        let session = Harness(
            lines: ["First", "Second", "/fork 1", "Another second"],
            answers: [says("A1"), says("A2"), says("B2")])

        _ = await session.run()

        #expect(
            transcript(session.requests.last) == [
                "system: Be brief.", "user: First", "assistant: A1", "user: Another second",
            ])
        #expect(session.conversation.messages.map(\.content) == ["First", "A1", "Another second", "B2"])
        #expect(session.conversation.messages.allSatisfy { $0.storageID == nil })
        #expect(
            session.noteLines == [
                "a new conversation with question 1 and its answer; it is stored when you send the next message"
            ])
    }

    @Test func forkOfNothingSaysSo() async {
        let session = Harness(lines: ["/fork"])

        _ = await session.run()

        #expect(session.noteLines == ["nothing to fork yet"])
    }

    @Test func answersNeedsTheHistory() async {
        let session = Harness(lines: ["Hi", "/answers"])

        _ = await session.run()

        #expect(session.noteLines == ["chat: error: history is off (--no-history or \"history\": false)"])
    }

    @Test func editorLeftEmptySendsNothing() async {
        let session = Harness(lines: ["/edit"], editor: StubTextEditor(writing: "  \n"))

        _ = await session.run()

        #expect(session.requests.isEmpty)
        #expect(session.noteLines == ["nothing written; nothing sent"])
    }

    @Test func saveAndLoadRoundTripTheConversationThroughTheArchive() async {
        let session = Harness(
            lines: ["Hi", "/save chat.json", "/clear", "/model other-model", "/load chat.json", "Again"],
            answers: [says("Hello"), says("Welcome back")])

        _ = await session.run()

        #expect(session.archive.saved["chat.json"]?.messages.count == 2)
        #expect(
            transcript(session.requests.last) == [
                "system: Be brief.", "user: Hi", "assistant: Hello", "user: Again",
            ])
        #expect(session.requests.last?.settings.model == model)
        #expect(session.noteLines.first == "saved 2 messages to chat.json")
        #expect(session.noteLines.last == "loaded 2 messages from chat.json (model test-model)")
    }

    @Test func loadKeepsTheFilesSettingsUnlessThisRunsOptionsGaveOthers() async {
        let file = Conversation(
            systemPrompt: "From the file.",
            settings: ChatSettings(model: "file-model", sampling: [.temperature: .number(0.3)]),
            messages: [ChatMessage(role: .user, content: "Q"), ChatMessage(role: .assistant, content: "A")])
        let plain = Harness(lines: ["/load t.json", "Next"])
        try? plain.archive.save(file, to: "t.json")
        _ = await plain.run()
        #expect(plain.requests.last?.settings.model == "file-model")
        #expect(plain.requests.last?.settings.sampling[.temperature] == .number(0.3))
        // Not in the file: what is configured.
        #expect(plain.requests.last?.settings.sampling[.maxTokens] == .wholeNumber(99))
        #expect(plain.requests.last?.messages.first?.content == "From the file.")

        let flagged = Harness(
            [.line("/load t.json"), .line("Next")],
            given: ChatSettings(model: "flag-model", sampling: [.temperature: .number(1)]))
        try? flagged.archive.save(file, to: "t.json")
        _ = await flagged.run()
        #expect(flagged.requests.last?.settings.model == "flag-model")
        #expect(flagged.requests.last?.settings.sampling[.temperature] == .number(1))
    }

    @Test(arguments: ["/save", "/load"])
    func saveOrLoadWithoutAFileIsOneErrorLine(command: String) async {
        let session = Harness(lines: ["Hi", command])

        _ = await session.run()

        #expect(session.noteLines == ["chat: error: give a file name: \(command) FILE"])
        #expect(session.archive.saved.isEmpty)
        #expect(session.conversation.messages.count == 2)
    }

    @Test func loadingAMissingFileIsOneErrorLineAndKeepsTheConversation() async {
        let session = Harness(lines: ["Hi", "/load nowhere.json", "Again"])

        _ = await session.run()

        #expect(session.noteLines == ["chat: error: nowhere.json does not exist"])
        #expect(transcript(session.requests.last).count == 4)
    }

    @Test func usageShowsEachTurnAndTheTotal() async {
        let session = Harness(
            lines: ["Hi", "Again", "/usage"],
            answers: [
                says("Hello", usage: TokenUsage(promptTokens: 10, completionTokens: 5)),
                says("Hello again", usage: TokenUsage(promptTokens: 20, completionTokens: 7)),
            ])

        _ = await session.run()

        #expect(
            session.outputLines.suffix(3) == [
                "turn 1: 10 prompt + 5 completion = 15",
                "turn 2: 20 prompt + 7 completion = 27",
                "total: 42 tokens over 2 turns",
            ])
        #expect(session.notes.writes.isEmpty)
    }

    @Test func usageShowsTheCacheWhenTheServerReportsIt() async {
        let session = Harness(
            lines: ["Hi", "/usage"],
            answers: [
                says(
                    "Hello",
                    usage: TokenUsage(
                        promptTokens: 3210, completionTokens: 5, cacheReadTokens: 3000, cacheWriteTokens: 200))
            ])

        _ = await session.run()

        #expect(
            session.outputLines.suffix(2).first
                == "turn 1: 3210 prompt + 5 completion = 3215 (cache: 3000 read, 200 written)")
    }

    @Test func usageShowsTheReasoningTokensWhenTheServerCountsSome() async {
        let session = Harness(
            lines: ["Hi", "Again", "/usage"],
            answers: [
                says(
                    "4",
                    usage: TokenUsage(
                        promptTokens: 20, completionTokens: 300, cacheReadTokens: 10, reasoningTokens: 256)),
                says("5", usage: TokenUsage(promptTokens: 30, completionTokens: 2, reasoningTokens: 0)),
            ])

        _ = await session.run()

        #expect(
            session.outputLines.suffix(3) == [
                "turn 1: 20 prompt + 300 completion (256 reasoning) = 320 (cache: 10 read)",
                "turn 2: 30 prompt + 2 completion = 32",
                "total: 352 tokens over 2 turns",
            ])
    }

    @Test func usageWithoutFiguresFromTheServerSaysSo() async {
        let session = Harness(lines: ["Hi", "/usage"])

        _ = await session.run()

        #expect(session.outputLines == ["OK"])
        #expect(session.noteLines == ["no usage reported yet (some servers send none)"])
    }

    @Test func unknownCommandIsOneErrorLinePointingToHelpAndSendsNothing() async {
        let session = Harness(lines: ["/foo bar"])

        let status = await session.run()

        #expect(status == 0)
        #expect(session.requests.isEmpty)
        #expect(session.output.writes.isEmpty)
        #expect(session.noteLines.count == 1)
        let line = session.noteLines.first ?? ""
        #expect(line.hasPrefix("chat: error:"))
        #expect(line.contains("/foo"))
        #expect(line.contains("/help"))
    }

    // MARK: Messages that look like commands

    @Test(
        arguments: [
            ("//help", "/help"),
            ("//text", "/text"),
            ("/usr/bin is a path", "/usr/bin is a path"),
            ("/ a lone slash", "/ a lone slash"),
        ])
    func lineThatIsNotACommandIsSentAsAMessage(line: String, sent: String) async {
        let session = Harness(lines: [line])

        _ = await session.run()

        #expect(transcript(session.requests.last) == ["system: Be brief.", "user: \(sent)"])
        #expect(session.notes.writes.isEmpty)
    }

    // MARK: Input

    @Test func blankLinesAreIgnored() async {
        let session = Harness(lines: ["", "   ", "\t", "Hi", ""])

        let status = await session.run()

        #expect(status == 0)
        #expect(session.requests.count == 1)
        #expect(session.reader.remembered == ["Hi"])
        #expect(session.notes.writes.isEmpty)
    }

    @Test func tripleQuoteBlockIsSentAsOneMessageJoinedWithNewlines() async {
        let session = Harness(lines: ["\"\"\"", "line one", "", "  line three", " \"\"\" ", "After"])

        _ = await session.run()

        #expect(session.requests.count == 2)
        #expect(transcript(session.requests.first) == ["system: Be brief.", "user: line one\n\n  line three"])
        #expect(transcript(session.requests.last).last == "user: After")
        #expect(session.reader.remembered == ["line one\n\n  line three", "After"])
        // Inside the block the continuation prompt is shown, not the conversation's.
        #expect(session.reader.prompts.dropFirst().prefix(4) == ["… ", "… ", "… ", "… "])
    }

    @Test func unclosedBlockAtTheEndOfInputIsStillSent() async {
        let session = Harness(lines: ["\"\"\"", "first", "second"])

        let status = await session.run()

        #expect(status == 0)
        #expect(transcript(session.requests.last) == ["system: Be brief.", "user: first\nsecond"])
    }

    @Test func ctrlCInsideABlockDiscardsIt() async {
        let session = Harness([.line("\"\"\""), .line("draft"), .interrupted, .line("Hi")])

        _ = await session.run()

        #expect(session.requests.count == 1)
        #expect(transcript(session.requests.last) == ["system: Be brief.", "user: Hi"])
        #expect(session.noteLines == ["(block discarded)"])
        #expect(session.reader.prompts.at(3) == prompt("test-model · 0 turns"))
    }

    @Test func ctrlCAtThePromptPrintsTheHintAndCarriesOn() async {
        let session = Harness([.interrupted, .line("Hi")])

        let status = await session.run()

        #expect(status == 0)
        #expect(session.noteLines == ["(Ctrl-C discards the line; /exit or Ctrl-D leaves)"])
        #expect(session.requests.count == 1)
        #expect(session.reader.prompts.count == 3)
    }

    @Test func aTerminatingSignalThatEndsTheReadEndsTheSessionWithItsStatus() async {
        let session = Harness([.line("Hi"), .signalled(15), .line("never read")])
        #expect(await session.run() == 143)
        #expect(session.reader.unread == [.line("never read")])

        let inBlock = Harness([.line("\"\"\""), .line("half a block"), .signalled(1), .line("never read")])
        #expect(await inBlock.run() == 129)
        #expect(inBlock.requests.isEmpty)
    }

    @Test func endOfInputEndsWithStatusZero() async {
        let session = Harness([])

        let status = await session.run()

        #expect(status == 0)
        #expect(session.reader.prompts == [prompt("test-model · 0 turns")])
        #expect(session.requests.isEmpty)
        #expect(session.output.writes.isEmpty)
        #expect(session.notes.writes.isEmpty)
    }

    // MARK: Failure

    @Test func failedTurnPrintsOneErrorLineAndIsLeftOutOfTheNextRequest() async {
        let session = Harness(
            lines: ["Hi", "Next"],
            answers: [.answer([], failure: .server(status: 502, message: "bad gateway")), says("OK")]
        )

        let status = await session.run()

        #expect(status == 0)
        #expect(session.noteLines.count { $0.hasPrefix("chat: error:") } == 1)
        #expect(session.noteLines.first == "chat: error: 502 server error: bad gateway")
        #expect(session.conversation.messages.first == ChatMessage(role: .user, content: "Hi", state: .failed))
        #expect(transcript(session.requests.last) == ["system: Be brief.", "user: Next"])
        #expect(session.output.text == "OK\n")
    }

    // MARK: Interruption

    @Test func interruptingAnAnswerKeepsThePartialTextForTheNextRequest() async {
        let session = Harness(
            lines: ["Tell me", "Go on"], answers: [.hang([.text("Half "), .text("an answer")]), says("Done")])
        session.whenReading("Tell me", outputContains: "an answer") { control in
            // As Ctrl-C would, once the partial answer is on screen. (Polled: the answer's task
            // may write before the REPL has registered how to stop it.)
            await waitUntil { control.interruptAnswer() }
        }

        let status = await session.run()

        #expect(status == 0)
        #expect(
            session.conversation.messages.prefix(2) == [
                ChatMessage(role: .user, content: "Tell me"),
                ChatMessage(role: .assistant, content: "Half an answer", state: .interrupted),
            ])
        #expect(session.noteLines.count == 1)
        #expect(session.noteLines.first?.hasPrefix("[interrupted") == true)
        // The prompt came back, and the next request carries what arrived.
        #expect(session.reader.prompts.at(1)?.hasPrefix("test-model · 1 turn") == true)
        #expect(
            transcript(session.requests.last) == [
                "system: Be brief.", "user: Tell me", "assistant: Half an answer", "user: Go on",
            ])
        #expect(session.output.text == "Half an answer\nDone\n")
    }

    @Test func exitRequestedWhileStreamingEndsTheSessionWithItsStatus() async {
        let session = Harness(lines: ["Tell me", "never read"], answers: [.hang([.text("Partial")])])
        session.whenReading("Tell me", outputContains: "Partial") { control in
            control.requestExit(status: 143)
        }

        let status = await session.run()

        #expect(status == 143)
        #expect(session.reader.unread == [.line("never read")])
        #expect(session.reader.prompts.count == 1)
        #expect(session.conversation.messages.last?.state == .interrupted)
    }

    @Test func exitRequestedBeforeTheFirstAnswerStartsStopsIt() async {
        // SIGTERM may arrive before the answer has registered how to stop it.
        let session = Harness(lines: ["never read"], answers: [.hang([])])
        session.control.requestExit(status: 143)

        let status = await session.run(firstMessage: "Hi")

        #expect(status == 143)
        #expect(session.reader.prompts.isEmpty)
    }

    // MARK: First message

    @Test func firstMessageIsSentBeforeTheFirstPrompt() async {
        let session = Harness(lines: ["Next"], answers: [says("First answer"), says("Second answer")])

        let status = await session.run(firstMessage: "Summarise this")

        #expect(status == 0)
        #expect(transcript(session.requests.first) == ["system: Be brief.", "user: Summarise this"])
        #expect(session.reader.prompts.first?.hasPrefix("test-model · 1 turn") == true)
        #expect(session.requests.count == 2)
        #expect(session.output.text == "First answer\nSecond answer\n")
    }

    @Test func endAfterFirstReturnsRightAfterItsAnswer() async {
        let session = Harness(lines: ["never read"])

        let status = await session.run(firstMessage: "Summarise this", endAfterFirst: true)

        #expect(status == 0)
        #expect(session.requests.count == 1)
        #expect(session.reader.prompts.isEmpty)
        #expect(session.reader.unread == [.line("never read")])
        #expect(session.output.text == "OK\n")
    }

    // MARK: Streams

    @Test func withNonTerminalSinksNoEscapeCodeIsWrittenAnywhere() async {
        let session = Harness(
            [
                .line("Hi"), .line("Fails"), .line("Cut"), .interrupted, .line("\"\"\""), .line("x"), .interrupted,
                .line("/help"), .line("/history"), .line("/model"), .line("/models"), .line("/system"),
                .line("/usage"), .line("/foo"), .line("/save"), .line("/edit"), .line("/undo"), .line("/retry"),
            ],
            answers: [
                .answer([
                    .reasoning("Thinking"), .text("Hello"), .usage(TokenUsage(promptTokens: 3, completionTokens: 1)),
                ]),
                .answer([], failure: .server(status: 503, message: "busy")),
                .answer([.text("Half")], failure: .streamCut("reset")),
                says("Again"),
            ])
        session.stub.setModels(.failure(.connection(.other, message: "refused")))

        _ = await session.run()

        #expect(session.requests.count == 4)
        #expect(!session.output.text.isEmpty)
        #expect(!session.notes.text.isEmpty)
        #expect(!session.output.text.contains(escape))
        #expect(!session.notes.text.contains(escape))
        #expect(!session.reader.prompts.joined().contains(escape))
    }

    @Test func answersAndCommandOutputGoToTheOutputAndNotesToTheNotes() async {
        let session = Harness(lines: ["Hi", "/model", "/model other", "/foo"], answers: [says("Hello")])

        _ = await session.run()

        #expect(session.outputLines == ["Hello", "test-model"])
        #expect(session.noteLines.count == 2)
        #expect(session.noteLines.first == "model: other")
        #expect(session.noteLines.last?.hasPrefix("chat: error:") == true)
    }
}
