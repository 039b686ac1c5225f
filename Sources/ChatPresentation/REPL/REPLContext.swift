import ChatDomain

/// What a session's commands work with: the conversation, the REPL's parts, and the ways to
/// answer, to switch conversations and to speak. Used by one task at a time.
final class REPLContext {
    let parts: REPL.Parts
    /// The commands, for /help.
    let commands: SlashCommandRegistry
    /// The conversation so far.
    var conversation: Conversation
    /// The role taken last (`-r`, `/role`), shown in the prompt.
    var role: PromptRole?
    /// A role whose prompt is a template: the next message sent goes into it.
    var pendingTemplate: PromptRole?
    /// Files attached to the next message (`-f`, `/file`).
    var attachments: Attachments
    private let formatter: PromptFormatter

    init(parts: REPL.Parts, commands: SlashCommandRegistry, conversation: Conversation) {
        self.parts = parts
        self.commands = commands
        self.conversation = conversation
        role = parts.role
        pendingTemplate = parts.role.flatMap { $0.isTemplate ? $0 : nil }
        attachments = parts.attachments
        formatter = PromptFormatter(style: parts.promptStyle)
    }

    /// The prompt, showing the conversation's state.
    var prompt: String {
        formatter.prompt(
            for: conversation, role: role?.name, attached: attachments.count,
            tools: parts.tools?.switch.enabledServers ?? [])
    }

    /// The prompt inside a `"""` block.
    var continuationPrompt: String { formatter.continuation }

    // MARK: - Answers

    /// Sends `text` (in a template role's prompt, the first time after the role was taken) with
    /// the files attached to it, and shows the answer; returns whether it arrived whole.
    @discardableResult
    func send(_ text: String) async -> Bool {
        var body = text
        if let template = pendingTemplate {
            body = template.message(for: text)
            pendingTemplate = nil
        }
        let message = attachments.message(with: body)
        attachments = Attachments()
        return await answer(.send(message))
    }

    /// Sends `message` as it is (its text and images, nothing else attached), and shows the
    /// answer; returns whether it arrived whole.
    @discardableResult
    func send(_ message: ChatMessage) async -> Bool {
        await answer(.send(message))
    }

    /// Asks again for an answer to the last message; returns whether it arrived whole.
    @discardableResult
    func retry() async -> Bool {
        await answer(.retry)
    }

    private func answer(_ request: AnswerRunner.Request) async -> Bool {
        let (updated, turn, printed) = await AnswerRunner(parts: parts).run(request, in: conversation)
        conversation = updated
        if turn.omittedMessages > 0 {
            note("(\(turn.omittedMessages) older messages were left out of the request to fit max_context_tokens)")
        }
        if let answer = turn.answer {
            guard let schema = conversation.settings.responseSchema, let checker = parts.schemaChecker,
                let mismatch = checker.firstMismatch(inAnswer: answer.content, against: schema)
            else { return true }
            failure(ErrorWording.line(for: mismatch))
            return false
        }
        switch turn.error {
        case nil:
            note("nothing to retry yet")
        case .cancelled?:
            note(printed ? "[interrupted: the partial answer is kept]" : "[interrupted]")
        case .unauthorized(let message)?:
            // Retrying cannot fix a key, and chat reads the key only when it starts. The id is
            // named: a conversation with no answer yet is not the one `chat -c` continues.
            failure(ErrorWording.line(for: .unauthorized(message: message)))
            if parts.history != nil, let id = conversation.id {
                note(
                    "(retrying cannot fix the key; your message is kept: correct the key, then chat --conversation "
                        + "\(id) and /retry send it)")
            } else {
                note(
                    "(retrying cannot fix the key; your message is kept for this session: /save FILE, correct the "
                        + "key, then /load FILE and /retry in a new chat)")
            }
        case .budgetReached(let spent, let limit)?:
            failure(ErrorWording.line(for: .budgetReached(spent: spent, limit: limit)))
            // No one to ask whether to spend more (a piped REPL): the session ends there, as a
            // script's run does.
            if !parts.reader.readsTerminal {
                parts.control.requestExit(status: 1)
            } else {
                note("(your message is kept: /retry asks again whether to go on; /usage shows what was spent)")
            }
        case let error? where error.isRequestTooLarge:
            failure(ErrorWording.line(for: error))
            // Sending it again would be refused again: the files are what must change.
            note("(/retry would be refused again: the files are too large for one request)")
        case let error?:
            let partial = printed ? conversation.messages.last.flatMap { $0.role == .assistant ? $0 : nil } : nil
            failure(
                partial.flatMap { ErrorWording.brokenLine(for: error, after: $0.content.count) }
                    ?? ErrorWording.line(for: error))
            note(printed ? "(the partial answer is kept; /retry asks again)" : "(/retry sends it again)")
        }
        return false
    }

    // MARK: - Conversations

    /// Continues `stored` (loaded from a file or the history) under the one rule for what a
    /// conversation switch keeps.
    func switchTo(_ stored: Conversation) {
        conversation = parts.conversationSwitch.adopt(stored)
        if let line = UnavailableImages.note(for: conversation) { note(line) }
    }

    /// Goes another way from message `index` on: the messages from it leave the conversation
    /// (stored ones stay in the history, on a branch of their own), and what is sent next
    /// follows the message before it.
    func branch(before index: Int) async {
        if let history = parts.history, let id = conversation.id {
            let previous = index > 0 ? conversation.messages[index - 1].storageID : nil
            if index == 0 || previous != nil { await history.branch(id, after: previous) }
        }
        conversation.keepFirst(index)
    }

    /// The index of question `argument` (from 1), or nil, having said why, when there is none.
    func questionIndex(_ argument: String, command: String) -> Int? {
        let questions = conversation.questionIndices
        guard let number = Int(argument), number >= 1 else {
            failure("give a question's number: \(command) (/history numbers them)")
            return nil
        }
        guard number <= questions.count else {
            failure(
                "no question \(number): this conversation has \(Counted.text(questions.count, "question")) "
                    + "(/history numbers them)")
            return nil
        }
        return questions[number - 1]
    }

    /// The stored conversations, or nil (having said so) when history is off.
    var history: (any ConversationHistory)? {
        guard let history = parts.history else {
            failure("history is off (--no-history or \"history\": false)")
            return nil
        }
        return history
    }

    // MARK: - Output

    /// Command output, to the output.
    func say(_ text: String) {
        parts.output.write(text)
    }

    /// A note, to the notes stream.
    func note(_ text: String) {
        parts.notes.write(parts.notesStyle.note(text) + "\n")
    }

    /// One warning line, to the notes stream.
    func warn(_ text: String) {
        parts.notes.write(parts.notesStyle.warning("chat: warning: \(text)") + "\n")
    }

    /// One error line, to the notes stream.
    func failure(_ text: String) {
        parts.notes.write(parts.notesStyle.error("chat: error: \(text)") + "\n")
    }
}
