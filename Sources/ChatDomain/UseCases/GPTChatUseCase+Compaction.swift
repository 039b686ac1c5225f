/// Compaction: a conversation that nears its context window has its oldest turns summarised by
/// the model, and requests carry the summary in their place (`Compaction`); `/compact` does it
/// when the person asks.
extension GPTChatUseCase {
    /// The share of the window a request may fill before older turns are summarised.
    static let compactionThreshold = 0.8
    /// No server's window is smaller: a shorter conversation never asks the server for its own.
    static let smallestWindow = 2048

    /// The window of a conversation whose next request would fill more than
    /// `compactionThreshold` of it, when it is to be compacted by itself
    /// (`ChatSettings.autoCompact`); nil when it fits or is not.
    func compactionWindow(of conversation: Conversation) async -> Int? {
        guard conversation.settings.autoCompact, let windows else { return nil }
        let estimate =
            Double(Conversation.estimate(conversation.requestMessages)) * conversation.tokensPerEstimatedToken
        // The server is asked only of a conversation that could pass its window.
        var window = windows.known(for: conversation.settings)
        if window == nil, estimate > Double(Self.smallestWindow) * Self.compactionThreshold {
            window = await windows.said(for: conversation.settings, by: repository)
        }
        guard let window, estimate > Double(window) * Self.compactionThreshold else { return nil }
        return window
    }

    /// Summarises the oldest turns of a conversation that nears its `window`: as many as it
    /// takes for the rest to fit in half the window (at least one exchange; never the question
    /// being answered, nor a tool round split from its results). Says what it did through
    /// `onEvent`. Returns the error that stopped the summary, if one did.
    func compactIfNeeded(_ conversation: inout Conversation, window: Int, onEvent: (ChatEvent) -> Void) async
        -> ChatError?
    {
        let scale = conversation.tokensPerEstimatedToken
        guard let end = Self.compactionEnd(of: conversation, fitting: window / 2, scale: scale) else {
            onEvent(.notice(.overWindow(windowTokens: window)))
            return nil
        }
        let start = conversation.compaction?.coveredMessages ?? 0
        switch await summarise(&conversation, upTo: end, instructions: nil, onEvent: onEvent) {
        case .success:
            onEvent(.notice(.compacted(messages: end - start, windowTokens: window)))
            return nil
        case .failure(let error):
            return error
        }
    }

    public func compact(_ conversation: inout Conversation, instructions: String?) async -> Result<Int, ChatError> {
        let start = conversation.compaction?.coveredMessages ?? 0
        let end = conversation.messages.count
        guard conversation.messages[start..<end].contains(where: { $0.role == .assistant && $0.hasAnswerContent })
        else { return .success(0) }
        return await summarise(&conversation, upTo: end, instructions: instructions).map { end - start }
    }

    /// Where a compaction that lets the rest of the request fit in `budget` tokens ends: the
    /// first question after which the request (summary aside) fits, else the question being
    /// answered (the last); nil when there is no exchange before it to summarise.
    static func compactionEnd(of conversation: Conversation, fitting budget: Int, scale: Double) -> Int? {
        let start = conversation.compaction?.coveredMessages ?? 0
        let messages = conversation.messages
        let questions = (start..<messages.count).filter { messages[$0].role == .user }
        guard questions.count >= 2 else { return nil }
        let system = conversation.systemPrompt.map { ChatMessage(role: .system, content: $0) }
        for end in questions.dropFirst() {
            let rest = (system.map { [$0] } ?? []) + Conversation.sendable(messages[end...])
            if Double(Conversation.estimate(rest)) * scale <= Double(budget) { return end }
        }
        return questions.last
    }

    /// Asks the model for a summary of the conversation's messages up to `end` (with the summary
    /// they follow, if any) and makes it the conversation's compaction, stored with the history.
    /// A request the server refuses for its length is sent again in pieces, each summarised
    /// with the summary of those before.
    func summarise(
        _ conversation: inout Conversation, upTo end: Int, instructions: String?,
        onEvent: (ChatEvent) -> Void = { _ in }
    ) async -> Result<Void, ChatError> {
        let start = conversation.compaction?.coveredMessages ?? 0
        var summary = conversation.compaction?.summary
        var pieces = [Array(conversation.messages[start..<end])]
        var spent = TokenUsage(promptTokens: 0, completionTokens: 0, totalTokens: 0)
        var costKnown = true
        while let piece = pieces.first {
            pieces.removeFirst()
            var request = ChatRequest(
                messages: Self.summaryRequest(
                    of: piece, after: summary, system: conversation.systemPrompt, instructions: instructions),
                settings: conversation.settings)
            request.settings.responseSchema = nil
            switch await summaryAnswer(to: request, onEvent: onEvent) {
            case .success(let answer):
                summary = answer.content
                if let usage = answer.usage {
                    spent.promptTokens += usage.promptTokens
                    spent.completionTokens += usage.completionTokens
                    spent.totalTokens += usage.totalTokens
                    spent.model = spent.model ?? usage.model
                    if let cost = usage.costUSD {
                        spent.costUSD = (spent.costUSD ?? 0) + cost
                    } else {
                        costKnown = false
                    }
                } else {
                    costKnown = false
                }
            case .failure(let error):
                guard ContextOverflow.refused(error), let halves = Self.halves(of: piece) else {
                    return .failure(error)
                }
                pieces.insert(contentsOf: [halves.0, halves.1], at: 0)
            }
        }
        guard let summary, !summary.isEmpty else {
            return .failure(.malformedResponse("the summary came back empty"))
        }
        if !costKnown { spent.costUSD = nil }
        conversation.compaction = Compaction(summary: summary, coveredMessages: end)
        if let recorder, let id = conversation.id, let through = conversation.messages[end - 1].storageID {
            await recorder.compacted(
                Compaction(summary: summary, coveredMessages: end), through: through,
                settings: conversation.settings, usage: spent, of: id)
        }
        return .success(())
    }

    /// The answer to a summary request, its cost added to the run's; stopped by the budget as
    /// any request is (`onEvent` hears of it).
    private func summaryAnswer(to request: ChatRequest, onEvent: (ChatEvent) -> Void) async
        -> Result<ChatMessage, ChatError>
    {
        if let reached = await costs?.mayAsk(onEvent: onEvent) {
            return .failure(.budgetReached(spent: reached.spent, limit: reached.limit))
        }
        var answer = ChatMessage(role: .assistant, content: "")
        do throws(ChatError) {
            try await repository.streamChat(request).read { event in
                var event = event
                if let costs, case .usage(var usage) = event {
                    usage.costUSD = costs.prices.cost(of: usage, asked: request.settings.model)
                    _ = costs.spending.add(usage.costUSD)
                    event = .usage(usage)
                }
                answer.add(event)
            }
        } catch {
            return .failure(error)
        }
        return .success(answer)
    }

    /// A summary request: the system prompt, the earlier summary, the messages, then what is
    /// asked. The messages' tool rounds go as the providers send them with no tools offered: as
    /// text.
    static func summaryRequest(
        of messages: [ChatMessage], after summary: String?, system: String?, instructions: String?
    ) -> [ChatMessage] {
        var request: [ChatMessage] = []
        if let system, !system.isEmpty { request.append(ChatMessage(role: .system, content: system)) }
        if let summary { request += Compaction(summary: summary, coveredMessages: 0).requestMessages }
        request += Conversation.sendable(messages[...])
        var ask = summaryInstructions
        if let instructions, !instructions.isEmpty { ask += "\n\nIn particular: " + instructions }
        request.append(ChatMessage(role: .user, content: ask))
        return request
    }

    /// What the model is asked for.
    static let summaryInstructions =
        "Summarise our conversation so far (with the earlier summary, if there is one), so that the summary "
        + "can stand in for it from now on: my goals and questions, what was answered or decided and why, "
        + "the facts, names, numbers, code, commands and file names that later turns may need, what tools "
        + "were called and what they found, and what is still open. Be complete but brief; write notes in "
        + "the conversation's language, not a letter, and do not answer anything new."

    /// A piece of a summary request split in two: at the question nearest its middle, or, for
    /// one exchange, with its longest message's text cut to half; nil when it cannot be split.
    static func halves(of piece: [ChatMessage]) -> ([ChatMessage], [ChatMessage])? {
        let questions = piece.indices.filter { piece[$0].role == .user && $0 > 0 }
        if let middle = questions.min(by: { abs($0 - piece.count / 2) < abs($1 - piece.count / 2) }) {
            return (Array(piece[..<middle]), Array(piece[middle...]))
        }
        guard let longest = piece.indices.max(by: { piece[$0].content.utf8.count < piece[$1].content.utf8.count }),
            piece[longest].content.count > 2000
        else { return nil }
        let text = piece[longest].content
        let half = text.index(text.startIndex, offsetBy: text.count / 2)
        var first = piece
        var second = piece
        first[longest].content = String(text[..<half]) + "\n[… continued in the next part]"
        second[longest].content = "[… the first part of this message was summarised already]\n" + String(text[half...])
        return (first, second)
    }
}
