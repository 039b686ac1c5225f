import ChatConfig
import ChatDomain
import ChatHistory
import ChatMCP
import ChatPresentation

/// What both modes are wired from: the outputs, their styles, the settings and the use case.
struct Session {
    var environment: [String: String]
    var stdout: FileDescriptorSink
    var stderr: FileDescriptorSink
    var settings: ResolvedSettings
    var useCase: GPTChatUseCase
    /// The stored conversations, when history is on.
    var history: SQLiteConversationStore?
    /// Says what the history tells while the chat goes on.
    var historyWarnings: HistoryWarnings
    /// A stored conversation to continue (`-c`, `--conversation`).
    var continuing: Conversation?
    /// Files attached to the (first) message with `-f`.
    var attachments = Attachments()
    /// What the REPL's `/file` attaches with (files, and pages from URLs).
    var attachmentReader: (any AttachmentReader)?
    /// `--code`: only the code of the answer's code blocks on stdout.
    var codeOnly = false
    /// `--json`: the answer's events as JSON lines on stdout.
    var json = false
    /// The MCP servers whose tools the run offers (`-T`, `tools`), ended when the chat ends.
    var toolServers: MCPTools?
    /// What the REPL's `/tools` and prompt work with, when the run offers tools.
    var tools: REPL.Tools?
    /// Whether answers show reasoning (`show_reasoning`); the REPL's `/reasoning` changes it.
    var reasoning = ReasoningSwitch(shown: true)
    /// What the run has spent, and its budget.
    var spending: RunSpending?

    /// At the end of a one-shot: a conversation the history could not store is kept in a file
    /// of its own, and one line says so. (Failed writes were held back, so that line is all.)
    func keepUnstored(_ conversation: Conversation) async {
        guard let history else { return }
        let keeper = UnstoredConversation(
            history: history, archive: JSONConversationArchive(home: environment["HOME"]),
            temporaryDirectory: environment["TMPDIR"])
        if let line = await keeper.keep(conversation) {
            stderr.write(notesStyle.warning("chat: warning: " + line) + "\n")
        }
    }

    var outputStyle: TerminalStyle { TerminalStyle(isTerminal: stdout.isTerminal, environment: environment) }
    var notesStyle: TerminalStyle { TerminalStyle(isTerminal: stderr.isTerminal, environment: environment) }

    /// The one rule for what a switch to another conversation keeps: options given on this run's
    /// command line win over the conversation's own.
    var conversationSwitch: ConversationSwitch {
        ConversationSwitch(
            configured: settings.chat, given: settings.given, givenSystemPrompt: settings.givenSystemPrompt)
    }

    /// The conversation to start with: the one being continued, under the conversation-switch
    /// rule, or a new one with the configured settings and system prompt.
    var conversation: Conversation {
        guard let continuing else { return Conversation(systemPrompt: settings.systemPrompt, settings: settings.chat) }
        return conversationSwitch.adopt(continuing)
    }

    /// Makes the renderer that shows each answer: Markdown rendered for the terminal, or the
    /// text as it arrives (`render`: auto renders when stdout is a terminal, not `TERM=dumb`).
    var makeRenderer: AnswerRendererFactory {
        let (stdout, stderr, style, environment, reasoning) = (stdout, stderr, notesStyle, environment, reasoning)
        if json { return jsonRenderer(reportsCommand: false) }
        let schema = conversation.settings.responseSchema != nil
        // An answer that must be JSON is printed as it comes (it is the JSON).
        guard rendersMarkdown, conversation.settings.responseSchema == nil else {
            return {
                // The sources of an answer that must be JSON go to stderr: stdout stays the JSON.
                PlainAnswerRenderer(
                    output: stdout, notes: stderr, notesStyle: style, showsReasoning: reasoning.isOn,
                    sourcesToNotes: schema)
            }
        }
        return {
            MarkdownAnswerRenderer(
                output: stdout, notes: stderr, notesStyle: style, fd: 1, environment: environment,
                showsReasoning: reasoning.isOn)
        }
    }

    /// Makes the renderer of `--json`: the events as JSON lines on stdout; with `reportsCommand`
    /// (`-x`), the command the answer holds too.
    func jsonRenderer(reportsCommand: Bool) -> AnswerRendererFactory {
        let lines = JSONLines(stdout)
        let (stderr, style) = (stderr, notesStyle)
        let (model, provider) = (conversation.settings.model, settings.server.provider.rawValue)
        return {
            JSONLinesAnswerRenderer(
                lines: lines, notes: stderr, notesStyle: style, model: model, provider: provider,
                reportsCommand: reportsCommand)
        }
    }

    /// Whether answers are rendered as Markdown.
    var rendersMarkdown: Bool {
        switch settings.render {
        case .always: return true
        case .never: return false
        case .auto: return TerminalStyle.takesEscapes(isTerminal: stdout.isTerminal, environment: environment)
        }
    }

    /// Where `/copy` puts text: a clipboard program where a display is, else the terminal's
    /// clipboard through OSC 52 when stdout is a terminal.
    var clipboard: (any Clipboard)? {
        if let program = ProgramClipboard.find(environment: environment) { return program }
        return stdout.isTerminal ? TerminalClipboard(terminal: stdout, environment: environment) : nil
    }
}
