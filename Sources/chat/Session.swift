import ChatData
import ChatDomain
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
    /// A stored conversation to continue (`-c`, `--conversation`).
    var continuing: Conversation?
    /// Files attached to the (first) message with `-f`.
    var attachments = Attachments()

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

    /// Makes the renderer that shows each answer: plain text.
    var makeRenderer: AnswerRendererFactory {
        let (stdout, stderr, style) = (stdout, stderr, notesStyle)
        return { PlainAnswerRenderer(output: stdout, notes: stderr, notesStyle: style) }
    }
}
