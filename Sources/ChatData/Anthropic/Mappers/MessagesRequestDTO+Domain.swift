import ChatDomain

extension MessagesRequestDTO {
    /// `max_tokens` when nothing sets it: the API requires one.
    static let defaultMaxTokens = 8192

    /// The wire form of `request`: system messages joined into the top-level `system`, the others
    /// as user and assistant turns of text and image blocks; `max_tokens` always (raised above
    /// `thinkingBudget` when thinking is asked for); with `cache`, the system prompt and the last
    /// user turn marked for caching. Throws `ChatError.unsupportedSetting` for a sampling
    /// parameter the Messages API does not take.
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
        if let thinkingBudget {
            thinking = ThinkingDTO(budget_tokens: thinkingBudget)
            if maxTokens <= thinkingBudget { maxTokens = thinkingBudget + Self.defaultMaxTokens }
        }
        max_tokens = maxTokens
        let systemText = request.messages.filter { $0.role == .system }.map(\.content).filter { !$0.isEmpty }
        if !systemText.isEmpty {
            system = [BlockDTO(type: "text", text: systemText.joined(separator: "\n\n"))]
            if cache { system?[0].cache_control = CacheControlDTO() }
        }
        messages = request.messages.compactMap(MessageDTO.init)
        if cache, let last = messages.lastIndex(where: { $0.role == "user" }), !messages[last].content.isEmpty {
            messages[last].content[messages[last].content.count - 1].cache_control = CacheControlDTO()
        }
    }
}

extension MessagesRequestDTO.MessageDTO {
    /// A user or assistant message as content blocks: its text, then each image as a base64
    /// `source` block (or a note where its bytes are gone); nil for a system message or one with
    /// nothing to send (the API refuses empty content). Tool calls and results are not sent yet.
    init?(_ message: ChatMessage) {
        guard message.role != .system else { return nil }
        typealias Block = MessagesRequestDTO.BlockDTO
        var blocks: [Block] = message.content.isEmpty ? [] : [Block(type: "text", text: message.content)]
        for image in message.images {
            if let data = image.data {
                let source = MessagesRequestDTO.ImageSourceDTO(media_type: image.mimeType, data: Base64.encode(data))
                blocks.append(Block(type: "image", source: source))
            } else {
                blocks.append(Block(type: "text", text: image.unavailableNote))
            }
        }
        guard !blocks.isEmpty else { return nil }
        self.init(role: message.role.rawValue, content: blocks)
    }
}
