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

    var outputStyle: TerminalStyle { TerminalStyle(isTerminal: stdout.isTerminal, environment: environment) }
    var notesStyle: TerminalStyle { TerminalStyle(isTerminal: stderr.isTerminal, environment: environment) }

    /// A new conversation with the configured model, sampling settings and system prompt.
    var conversation: Conversation {
        Conversation(
            systemPrompt: settings.systemPrompt,
            settings: ChatSettings(
                model: settings.model, temperature: settings.temperature, maxTokens: settings.maxTokens,
                stream: settings.stream))
    }
}
