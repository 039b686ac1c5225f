import Synchronization

/// `ChatUseCase` over a `GPTRepository`.
///
/// A class because `lastError` is state the presenter reads after each call; a lock guards it
/// so an answer can run in a task of its own (the REPL cancels that task on Ctrl-C).
public final class GPTChatUseCase: ChatUseCase {
    private let failure = Mutex<ChatError?>(nil)
    private let repository: any GPTRepository

    public var lastError: ChatError? {
        failure.withLock { $0 }
    }

    private func setLastError(_ error: ChatError?) {
        failure.withLock { $0 = error }
    }

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
            setLastError(nil)
            return nil
        }
        conversation.markLast(.complete)
        return await answer(&conversation, onEvent: onEvent)
    }

    public func models() async -> [ModelInfo]? {
        switch await repository.listModels() {
        case .success(let models):
            setLastError(nil)
            return models
        case .failure(let error):
            setLastError(error)
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
                case .finished, .retrying: break
                }
                onEvent(event)
            }
            // A cancelled consumer ends the loop without an error: check before calling it whole.
            try Task.checkCancellation()
            partial.reasoning = reasoning.isEmpty ? nil : reasoning
            conversation.append(partial)
            setLastError(nil)
            return partial
        } catch {
            setLastError(Self.chatError(from: error))
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
