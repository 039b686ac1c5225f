import ChatDomain

extension ConversationFileDTO {
    static let formatName = "chat-conversation"
    /// The newest version this release reads. It writes 1 for a conversation without tool
    /// rounds (as before them, so older releases read it) and 2 for one with them (which an
    /// older release refuses as newer, rather than misreading its `tool` messages).
    static let currentVersion = 2

    init(_ conversation: Conversation) {
        let withParts = conversation.messages.contains(where: StoredPartDTO.needsParts)
        self.init(
            format: Self.formatName,
            version: withParts ? 2 : 1,
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
                    images: message.images.isEmpty
                        ? nil : message.images.map { StoredImageDTO($0, withBytes: true) },
                    parts: StoredPartDTO.needsParts(message) ? message.parts.map(StoredPartDTO.init) : nil,
                    answered_by: message.answeredBy?.profile, answered_model: message.answeredBy?.model,
                    resumed: message.resumed ? true : nil
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
            let usage = message.usage.map {
                TokenUsage(
                    promptTokens: $0.prompt_tokens, completionTokens: $0.completion_tokens, totalTokens: $0.total_tokens
                )
            }
            var read =
                message.parts.map {
                    ChatMessage(
                        role: role, parts: $0.compactMap { $0.toDomain(home: home) }, state: state,
                        reasoning: message.reasoning, usage: usage)
                }
                ?? ChatMessage(
                    role: role, content: message.content, state: state, reasoning: message.reasoning,
                    usage: usage, images: (message.images ?? []).map { $0.toDomain(home: home) })
            if let profile = message.answered_by {
                read.answeredBy = AnsweredBy(profile: profile, model: message.answered_model ?? "")
            }
            read.resumed = message.resumed ?? false
            messages.append(read)
        }
        let settings = self.settings.applied(to: ChatSettings(model: model, stream: stream))
        return .success(Conversation(systemPrompt: system_prompt, settings: settings, messages: messages))
    }
}
