/// `ChatUseCase` over a `GPTRepository`.
///
/// A class because `lastError` is state the presenter reads after each call; it is used from
/// one task at a time.
public final class GPTChatUseCase: ChatUseCase {
    public private(set) var lastError: ChatError?
    private let repository: any GPTRepository

    /// Creates the use case over `repository`.
    public init(repository: any GPTRepository) {
        self.repository = repository
    }

    public func send(
        _ text: String,
        in conversation: inout Conversation,
        onEvent: (ChatEvent) -> Void
    ) async -> ChatMessage? {
        conversation.append(ChatMessage(role: .user, content: text))
        return await answer(&conversation, onEvent: onEvent)
    }

    public func retry(in conversation: inout Conversation, onEvent: (ChatEvent) -> Void) async -> ChatMessage? {
        while let last = conversation.messages.last, last.role != .user {
            conversation.removeLast()
        }
        guard !conversation.messages.isEmpty else {
            lastError = nil
            return nil
        }
        conversation.markLast(.complete)
        return await answer(&conversation, onEvent: onEvent)
    }

    public func models() async -> [ModelInfo]? {
        switch await repository.listModels() {
        case .success(let models):
            lastError = nil
            return models
        case .failure(let error):
            lastError = error
            return nil
        }
    }

    private func answer(_ conversation: inout Conversation, onEvent: (ChatEvent) -> Void) async -> ChatMessage? {
        let request = ChatRequest(messages: conversation.requestMessages, settings: conversation.settings)
        var partial = ChatMessage(role: .assistant, content: "")
        var reasoning = ""
        do {
            for try await event in repository.streamChat(request) {
                switch event {
                case .text(let piece): partial.content += piece
                case .reasoning(let piece): reasoning += piece
                case .usage(let usage): partial.usage = usage
                case .finished: break
                }
                onEvent(event)
            }
            // A cancelled consumer ends the loop without an error: check before calling it whole.
            try Task.checkCancellation()
            partial.reasoning = reasoning.isEmpty ? nil : reasoning
            conversation.append(partial)
            lastError = nil
            return partial
        } catch {
            lastError = Self.chatError(from: error)
            if partial.content.isEmpty {
                conversation.markLast(.failed)
            } else {
                partial.state = .interrupted
                partial.reasoning = reasoning.isEmpty ? nil : reasoning
                conversation.append(partial)
            }
            return nil
        }
    }

    private static func chatError(from error: any Error) -> ChatError {
        if let error = error as? ChatError { return error }
        if error is CancellationError { return .cancelled }
        return .malformedResponse(String(describing: error))
    }
}
