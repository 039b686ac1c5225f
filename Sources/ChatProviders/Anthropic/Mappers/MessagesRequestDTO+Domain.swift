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
    /// offered; `max_tokens` always (raised above a thinking budget); thinking as `plan` says
    /// (adaptive with an effort, or a budget; `showsThinking` false asks for none of its text);
    /// with `cache`, the system prompt and the last user turn marked for caching. A response
    /// schema is asked for as a forced call of the `answer` tool. With `takesImages` false, each
    /// image goes as a note (`images: false`). Throws
    /// `ChatError.unsupportedSetting` for a sampling parameter the Messages API does not take,
    /// and `ChatError.unsupportedSettings` for a schema with thinking (which forbids forcing a
    /// tool).
    init(
        _ request: ChatRequest, thinking plan: AnthropicThinking?, showsThinking: Bool = true, cache: Bool,
        takesImages: Bool = true
    ) throws(ChatError) {
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
            case .maxTokens: maxTokens = value.wholeNumber ?? Int(value.number ?? 0)
            case .seed: throw .unsupportedSetting(name: "seed", provider: ProviderKind.anthropic.rawValue)
            case .effort: continue  // in `plan`
            }
        }
        // A turn that began without thinking (another provider's, or before thinking was asked
        // for) goes on without it: the API keeps one thinking setting for a whole turn.
        let plan = Self.continuesTurnWithoutThinking(request.messages) ? nil : plan
        if let plan, settings.responseSchema != nil {
            let other = settings.sampling[.effort] != nil ? "effort" : "thinking_budget"
            throw .unsupportedSettings(name: "schema", other: other, provider: ProviderKind.anthropic.rawValue)
        }
        switch plan {
        case .adaptive(let effort)?:
            thinking = ThinkingDTO(type: "adaptive", display: showsThinking ? "summarized" : "omitted")
            output_config = OutputConfigDTO(effort: effort)
        case .budget(let tokens)?:
            thinking = ThinkingDTO(type: "enabled", budget_tokens: tokens)
            if maxTokens <= tokens { maxTokens = tokens + Self.defaultMaxTokens }
        case nil:
            break
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
        // Thinking blocks go back with the answers of a request that asks for thinking, and, when
        // it does not, with those of the tool loop it goes on with: a model may think unasked, and
        // what it sent in a tool loop must go back unmodified. (Without tools the loop's calls go
        // as text: no longer a loop.)
        let keepsThinkingFrom =
            thinking != nil ? 0 : tools != nil ? Self.openTurnStart(request.messages) : request.messages.count
        messages = Self.messages(
            request.messages, keepsThinkingFrom: keepsThinkingFrom, takesTools: tools != nil, takesImages: takesImages,
            sentAsText: &sentAsText)
        // An answer sent back last (a paused turn's, to go on with) may not end with whitespace.
        if let last = messages.indices.last, messages[last].role == "assistant",
            let block = messages[last].content.indices.last, messages[last].content[block].type == "text",
            var text = messages[last].content[block].text
        {
            while let end = text.last, end.isWhitespace { text.removeLast() }
            messages[last].content[block].text = text
            if text.isEmpty, messages[last].content[block].citations == nil {
                messages[last].content.remove(at: block)
            }
        }
        if cache, let last = messages.lastIndex(where: { $0.role == "user" }), !messages[last].content.isEmpty {
            messages[last].content[messages[last].content.count - 1].cache_control = CacheControlDTO()
        }
    }

    /// Where the turn a request goes on with starts (the index in `messages` of its first
    /// answer), when the request goes on with a tool loop (it ends with results, or with a
    /// message that joins their turn on the wire); else past the end.
    private static func openTurnStart(_ messages: [ChatMessage]) -> Int {
        func opensTurn(_ index: Int) -> Bool {
            messages[index].role == .user && (index == 0 || messages[index - 1].role != .tool)
        }
        guard let last = messages.indices.last, messages[last].role != .assistant, !opensTurn(last) else {
            return messages.count
        }
        return messages.indices.last(where: opensTurn).map { $0 + 1 } ?? 0
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
