import ChatDomain
import ChatHTTP

extension MessagesRequestDTO {
    /// `max_tokens` when nothing sets it: the API requires one.
    static let defaultMaxTokens = 8192
    /// The tool a schema's answer is asked for with (the API has no `response_format`): the
    /// model must call it, and its input is the answer. Offered tools are namespaced
    /// (`server__tool`), so none can be named so.
    static let answerToolName = "answer"

    /// The wire form of `request`: system messages joined into the top-level `system`, the others
    /// as user and assistant turns of content blocks (`MessagesRequestDTO+Messages`); the tools
    /// offered; `max_tokens` always (raised above `thinkingBudget` when thinking is asked for);
    /// with `cache`, the system prompt and the last user turn marked for caching. A response
    /// schema is asked for as a forced call of the `answer` tool. Throws
    /// `ChatError.unsupportedSetting` for a sampling parameter the Messages API does not take,
    /// and `ChatError.unsupportedSettings` for a schema with thinking (which forbids forcing a
    /// tool).
    init(_ request: ChatRequest, thinkingBudget: Int?, cache: Bool) throws(ChatError) {
        let settings = request.settings
        self.init()
        model = settings.model
        stream = settings.stream
        var maxTokens = Self.defaultMaxTokens
        for parameter in SamplingParameter.allCases {
            guard let value = settings.sampling[parameter] else { continue }
            switch parameter {
            case .temperature: temperature = value.number
            case .topP: top_p = value.number
            case .maxTokens: maxTokens = value.wholeNumber ?? Int(value.number)
            case .seed: throw .unsupportedSetting(name: "seed", provider: ProviderKind.anthropic.rawValue)
            }
        }
        // A turn that began without thinking (another provider's, or before thinking was asked
        // for) goes on without it: the API keeps one thinking setting for a whole turn.
        let thinkingBudget = Self.continuesTurnWithoutThinking(request.messages) ? nil : thinkingBudget
        if let thinkingBudget {
            if settings.responseSchema != nil {
                throw .unsupportedSettings(
                    name: "schema", other: "thinking_budget", provider: ProviderKind.anthropic.rawValue)
            }
            thinking = ThinkingDTO(budget_tokens: thinkingBudget)
            if maxTokens <= thinkingBudget { maxTokens = thinkingBudget + Self.defaultMaxTokens }
        }
        max_tokens = maxTokens
        let systemText = request.messages.filter { $0.role == .system }.map(\.content).filter { !$0.isEmpty }
        if !systemText.isEmpty {
            system = [BlockDTO(type: "text", text: systemText.joined(separator: "\n\n"))]
            if cache { system?[0].cache_control = CacheControlDTO() }
        }
        var offered = request.tools.map {
            ToolDTO(
                name: $0.name, description: $0.description.isEmpty ? nil : $0.description, input_schema: $0.parameters)
        }
        if let schema = settings.responseSchema {
            offered.append(
                ToolDTO(
                    name: Self.answerToolName,
                    description: "Give your answer by calling this tool: its input is the whole answer.",
                    input_schema: schema.schema))
            tool_choice = ToolChoiceDTO(name: Self.answerToolName)
        }
        tools = offered.isEmpty ? nil : offered
        messages = Self.messages(
            request.messages, keepsThinking: thinking != nil, takesTools: tools != nil, sentAsText: &sentAsText)
        if cache, let last = messages.lastIndex(where: { $0.role == "user" }), !messages[last].content.isEmpty {
            messages[last].content[messages[last].content.count - 1].cache_control = CacheControlDTO()
        }
    }

    /// Whether `messages` go on with a tool loop (they end with tool results, or with a message
    /// that joins their turn on the wire) whose turn's first answer has no thinking block. Without
    /// interleaved thinking only a turn's first answer thinks: the answers to its results have none.
    private static func continuesTurnWithoutThinking(_ messages: [ChatMessage]) -> Bool {
        let turns = messages.filter { $0.role != .system }
        func opensTurn(_ index: Int) -> Bool {
            turns[index].role == .user && (index == 0 || turns[index - 1].role != .tool)
        }
        guard let last = turns.indices.last, turns[last].role != .assistant, !opensTurn(last) else { return false }
        let start = turns.indices.last(where: opensTurn).map { $0 + 1 } ?? 0
        guard let first = turns[start...].first(where: { $0.role == .assistant }) else { return false }
        return first.thinkingBlocks.isEmpty
    }
}
