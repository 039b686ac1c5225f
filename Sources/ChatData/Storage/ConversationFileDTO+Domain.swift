import ChatDomain

extension ConversationFileDTO {
    static let formatName = "chat-conversation"
    static let currentVersion = 1

    init(_ conversation: Conversation) {
        self.init(
            format: Self.formatName,
            version: Self.currentVersion,
            model: conversation.settings.model,
            system_prompt: conversation.systemPrompt,
            settings: StoredSettingsDTO(conversation.settings),
            messages: conversation.messages.map { message in
                MessageDTO(
                    role: message.role.rawValue,
                    content: message.content,
                    state: message.state == .complete ? nil : message.state.rawValue,
                    reasoning: message.reasoning,
                    usage: message.usage.map {
                        UsageFileDTO(
                            prompt_tokens: $0.promptTokens, completion_tokens: $0.completionTokens,
                            total_tokens: $0.totalTokens)
                    },
                    images: message.images.isEmpty ? nil : message.images.map(StoredImageDTO.init)
                )
            }
        )
    }

    /// The conversation, keeping `stream` from the current settings, its images read again from
    /// their files (`~/` expanded with `home`); the failure names what is wrong.
    func toDomain(stream: Bool, home: String? = nil) -> Result<Conversation, StorageError> {
        var messages: [ChatMessage] = []
        for (index, message) in self.messages.enumerated() {
            guard let role = Role(rawValue: message.role), role != .system else {
                return .failure(StorageError.unknownRole(message: index + 1, role: message.role))
            }
            let state = message.state.flatMap(MessageState.init(rawValue:)) ?? .complete
            messages.append(
                ChatMessage(
                    role: role, content: message.content, state: state, reasoning: message.reasoning,
                    usage: message.usage.map {
                        TokenUsage(
                            promptTokens: $0.prompt_tokens, completionTokens: $0.completion_tokens,
                            totalTokens: $0.total_tokens)
                    }, images: (message.images ?? []).map { $0.toDomain(home: home) }))
        }
        let settings = self.settings.applied(to: ChatSettings(model: model, stream: stream))
        return .success(Conversation(systemPrompt: system_prompt, settings: settings, messages: messages))
    }
}
