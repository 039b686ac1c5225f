import Synchronization

/// `ChatUseCase` over a `GPTRepository`.
///
/// A class because `lastError` is state the presenter reads after each call; a lock guards it
/// so an answer can run in a task of its own (the REPL cancels that task on Ctrl-C).
public final class GPTChatUseCase: ChatUseCase {
    private let failure = Mutex<ChatError?>(nil)
    private let repository: any GPTRepository
    private let recorder: (any ConversationRecorder)?
    private let checkpointInterval: Duration

    private let omittedMessages = Mutex(0)

    public var lastError: ChatError? {
        failure.withLock { $0 }
    }

    public var lastOmittedCount: Int {
        omittedMessages.withLock { $0 }
    }

    private func setLastError(_ error: ChatError?) {
        failure.withLock { $0 = error }
    }

    /// Creates the use case over `repository`. With a `recorder`, every message is stored as it
    /// happens: the user's before the request is sent, the answer while it streams (at least every
    /// `checkpointInterval`) and when it ends.
    public init(
        repository: any GPTRepository, recorder: (any ConversationRecorder)? = nil,
        checkpointInterval: Duration = .seconds(1)
    ) {
        self.repository = repository
        self.recorder = recorder
        self.checkpointInterval = checkpointInterval
    }

    public func send(
        _ text: String,
        in conversation: inout Conversation,
        onEvent: (ChatEvent) -> Void
    ) async -> ChatMessage? {
        if let recorder, conversation.id == nil {
            conversation.id = recorder.begin(conversation)
        }
        var message = ChatMessage(role: .user, content: text)
        message.storageID = store(message, in: conversation)
        conversation.append(message)
        return await answer(&conversation, onEvent: onEvent)
    }

    public func undo(in conversation: inout Conversation) -> Bool {
        guard let removed = conversation.removeLastExchange() else { return false }
        recorder?.remove(ids: removed.compactMap(\.storageID))
        return true
    }

    public func retry(in conversation: inout Conversation, onEvent: (ChatEvent) -> Void) async -> ChatMessage? {
        var removed: [Int64] = []
        while let last = conversation.messages.last, last.role != .user {
            conversation.removeLast()
            if let id = last.storageID { removed.append(id) }
        }
        recorder?.remove(ids: removed)
        guard var question = conversation.messages.last else {
            setLastError(nil)
            return nil
        }
        question.state = .complete
        conversation.replaceLast(question)
        if let id = question.storageID { recorder?.update(question, id: id) }
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
        let (messages, omitted) = conversation.requestMessagesWithinContext
        omittedMessages.withLock { $0 = omitted }
        let request = ChatRequest(messages: messages, settings: conversation.settings)
        // Until it ends well, a stored answer counts as interrupted: a killed process leaves it so.
        var partial = ChatMessage(role: .assistant, content: "", state: .interrupted)
        var reasoning = ""
        let clock = ContinuousClock()
        var lastCheckpoint = clock.now
        do {
            for try await event in repository.streamChat(request) {
                switch event {
                case .text(let piece): partial.content += piece
                case .reasoning(let piece): reasoning += piece
                case .usage(let usage): partial.usage = usage
                case .finished, .retrying: break
                }
                onEvent(event)
                if recorder != nil && !partial.content.isEmpty && clock.now - lastCheckpoint >= checkpointInterval {
                    partial.reasoning = reasoning.isEmpty ? nil : reasoning
                    checkpoint(&partial, in: conversation)
                    lastCheckpoint = clock.now
                }
            }
            // A cancelled consumer ends the loop without an error: check before calling it whole.
            try Task.checkCancellation()
            partial.state = .complete
            partial.reasoning = reasoning.isEmpty ? nil : reasoning
            checkpoint(&partial, in: conversation)
            conversation.append(partial)
            setLastError(nil)
            return partial
        } catch {
            setLastError(Self.chatError(from: error))
            if partial.content.isEmpty {
                if let id = partial.storageID { recorder?.remove(ids: [id]) }
                conversation.markLast(.failed)
                if let question = conversation.messages.last, let id = question.storageID {
                    recorder?.update(question, id: id)
                }
            } else {
                partial.state = .interrupted
                partial.reasoning = reasoning.isEmpty ? nil : reasoning
                checkpoint(&partial, in: conversation)
                conversation.append(partial)
            }
            return nil
        }
    }

    /// Stores `message` at the end of `conversation`'s history; its row id, or nil.
    private func store(_ message: ChatMessage, in conversation: Conversation) -> Int64? {
        guard let recorder, let id = conversation.id else { return nil }
        return recorder.append(
            message, settings: conversation.settings, systemPrompt: conversation.systemPrompt, to: id)
    }

    /// Writes the answer so far: a new row the first time, an update after.
    private func checkpoint(_ answer: inout ChatMessage, in conversation: Conversation) {
        guard let recorder else { return }
        if let id = answer.storageID {
            recorder.update(answer, id: id)
        } else if !answer.content.isEmpty || answer.state == .complete {
            answer.storageID = store(answer, in: conversation)
        }
    }

    private static func chatError(from error: any Error) -> ChatError {
        if let error = error as? ChatError { return error }
        if error is CancellationError { return .cancelled }
        return .malformedResponse(String(describing: error))
    }
}
