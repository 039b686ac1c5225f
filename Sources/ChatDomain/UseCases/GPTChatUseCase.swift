/// `ChatUseCase` over a `GPTRepository`, storing every message through a `ConversationRecorder`
/// when there is one.
public struct GPTChatUseCase: ChatUseCase {
    let repository: any GPTRepository
    let recorder: (any ConversationRecorder)?
    private let modelList: (any ModelRepository)?
    /// The tools answers may call, if any (`GPTChatUseCase+Tools`).
    let tools: ToolLoop?
    /// What answers cost and the run may spend, if that is kept.
    let costs: RunCosts?

    /// Creates the use case over `repository`. With a `recorder`, every message is stored as it
    /// happens: the user's while the request is on its way (before any of the answer is read),
    /// the answer while it streams (the recorder decides how often) and when it ends. With a
    /// `modelList`, the models come from it instead of straight from `repository`. With `tools`,
    /// their tools are offered, and an answer that calls them is followed by the calls' results
    /// and the answer to them (each stored as it completes). With `costs`, each answer's usage
    /// carries its cost, the run's spending is added up, and no request is sent past its budget
    /// unless the budget's consent raises it.
    public init(
        repository: any GPTRepository, recorder: (any ConversationRecorder)? = nil,
        modelList: (any ModelRepository)? = nil, tools: ToolLoop? = nil, costs: RunCosts? = nil
    ) {
        self.repository = repository
        self.recorder = recorder
        self.modelList = modelList
        self.tools = tools
        self.costs = costs
    }

    public func send(
        _ message: ChatMessage, in conversation: inout Conversation, onSent: (String?) -> Void,
        onEvent: (ChatEvent) -> Void
    ) async -> Turn {
        conversation.append(message)
        // The question is stored while the request is on its way (before any of the answer is
        // read), so the history's writes overlap the network instead of delaying the request.
        return await answer(&conversation, onEvent: onEvent) { conversation in
            defer { onSent(conversation.id) }
            guard let recorder else { return }
            if conversation.id == nil {
                // A conversation that began elsewhere (read from a file) is stored whole (in one go), so
                // continuing it later carries every turn; with the conversation itself, in one write.
                let unsaved = conversation.messages.indices.filter { conversation.messages[$0].storageID == nil }
                let stored = await recorder.begin(conversation, storing: unsaved.map { conversation.messages[$0] })
                guard let stored else { return }
                conversation.id = stored.id
                for (index, storageID) in zip(unsaved, stored.messageIDs ?? []) {
                    conversation.setStorageID(storageID, at: index)
                }
            } else if let id = conversation.id, let last = conversation.messages.indices.last {
                let storageID = await recorder.append(
                    conversation.messages[last], settings: conversation.settings,
                    systemPrompt: conversation.systemPrompt, to: id)
                conversation.setStorageID(storageID, at: last)
            }
        }
    }

    public func undo(in conversation: inout Conversation) async -> Bool {
        guard let removed = conversation.removeLastExchange() else { return false }
        await recorder?.remove(ids: removed.compactMap(\.storageID))
        return true
    }

    public func retry(in conversation: inout Conversation, onEvent: (ChatEvent) -> Void) async -> Turn {
        var replaced = false
        while let last = conversation.messages.last, last.role != .user {
            conversation.removeLast()
            replaced = true
        }
        guard var question = conversation.messages.last else { return Turn(answer: nil) }
        // What is replaced stays stored, on a branch of its own (`/answers` steps back to it),
        // and the new answer follows the question.
        if replaced, let id = conversation.id { await recorder?.branch(id, after: question.storageID) }
        question.state = .complete
        conversation.replaceLast(question)
        if let id = question.storageID { await recorder?.update(question, id: id) }
        return await answer(&conversation, onEvent: onEvent)
    }

    /// Marks the question an answer failed to come for as failed (and so stored), so that later
    /// requests leave it out; tool results, which the calls before them need, are not.
    private func markQuestionFailed(in conversation: inout Conversation) async {
        guard conversation.messages.last?.role != .tool else { return }
        conversation.markLast(.failed)
        if let question = conversation.messages.last, let id = question.storageID {
            await recorder?.update(question, id: id)
        }
    }

    public func models() async -> Result<[ModelInfo], ChatError> {
        if let modelList { return await modelList.models() }
        return await repository.listModels()
    }

    /// Asks for the answer to `conversation` (with tools, the loop of their calls);
    /// `whileSending` runs once the request has started, before the answer is read.
    private func answer(
        _ conversation: inout Conversation, onEvent: (ChatEvent) -> Void,
        whileSending: (inout Conversation) async -> Void = { _ in }
    ) async -> Turn {
        guard let tools else {
            return await answerOnce(&conversation, onEvent: onEvent, whileSending: whileSending)
        }
        return await answerWithTools(&conversation, loop: tools, onEvent: onEvent, whileSending: whileSending)
    }

    /// Asks once for the answer to `conversation`, offering `offered`; `whileSending` runs once
    /// the request has started, before the answer is read. The answer is stored as it streams,
    /// with the tool calls it ends with.
    func answerOnce(
        _ conversation: inout Conversation, offered: [ToolDefinition] = [],
        onEvent: (ChatEvent) -> Void, whileSending: (inout Conversation) async -> Void = { _ in }
    ) async -> Turn {
        if let reached = await costs?.mayAsk() {
            // Not sent: the question is stored (as it would have been while sending) and marked
            // failed, so later requests leave it out.
            await whileSending(&conversation)
            await markQuestionFailed(in: &conversation)
            return Turn(answer: nil, error: .budgetReached(spent: reached.spent, limit: reached.limit))
        }
        let (messages, omitted) = conversation.requestMessagesWithinContext
        let request = ChatRequest(messages: messages, settings: conversation.settings, tools: offered)
        let answer = repository.streamChat(request)
        await whileSending(&conversation)
        // Until it ends well, a stored answer counts as interrupted: a killed process leaves it so.
        var partial = ChatMessage(role: .assistant, content: "", state: .interrupted)
        let recording = recorder.flatMap { recorder in
            conversation.id.map {
                recorder.recordAnswer(
                    to: $0, settings: conversation.settings, systemPrompt: conversation.systemPrompt)
            }
        }
        let model = conversation.settings.model
        var costed = false
        defer {
            // An answer whose server reported no usage has a cost no one knows.
            if let costs, !costed, costs.spending.add(nil) { onEvent(.notice(.costUnknown(model: model))) }
        }
        do throws(ChatError) {
            try await answer.read { event in
                var event = event
                if let costs, case .usage(var usage) = event {
                    usage.costUSD = costs.prices.cost(of: usage, asked: model)
                    event = .usage(usage)
                    costed = true
                    if costs.spending.add(usage.costUSD) { onEvent(.notice(.costUnknown(model: usage.model ?? model))) }
                }
                partial.add(event)
                onEvent(event)
                recording?.add(event)
            }
            // A consumer cancelled as the answer ended has no whole answer.
            if Task.isCancelled { throw .cancelled }
            partial.state = .complete
            if let recording { partial = await recording.finish(partial) }
            conversation.append(partial)
            return Turn(answer: partial, omittedMessages: omitted)
        } catch {
            if !partial.hasAnswerContent {
                // Nothing of the answer was stored: stored rows need text (or tool calls).
                await markQuestionFailed(in: &conversation)
            } else {
                partial.state = .interrupted
                if let recording { partial = await recording.finish(partial) }
                conversation.append(partial)
            }
            return Turn(answer: nil, error: error, omittedMessages: omitted)
        }
    }
}
