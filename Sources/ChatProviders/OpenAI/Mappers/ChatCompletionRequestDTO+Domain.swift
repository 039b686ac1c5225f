import ChatDomain

extension ChatCompletionRequestDTO {
    /// The wire form of `request`; `includeUsage` asks a streaming server for a usage chunk.
    init(_ request: ChatRequest, includeUsage: Bool) {
        let settings = request.settings
        self.init(
            model: settings.model,
            messages: Self.messages(request.messages),
            stream: settings.stream,
            stream_options: settings.stream && includeUsage ? StreamOptionsDTO(include_usage: true) : nil,
            sampling: Self.wireSampling(settings.sampling),
            response_format: settings.responseSchema.map {
                ResponseFormatDTO(json_schema: ResponseFormatDTO.JSONSchemaDTO(name: $0.name, schema: $0.schema))
            },
            tools: request.tools.isEmpty
                ? nil
                : request.tools.map {
                    ToolDTO(
                        function: FunctionDTO(
                            name: $0.name, description: $0.description.isEmpty ? nil : $0.description,
                            parameters: $0.parameters))
                }
        )
        sentAsText = request.messages.contains { message in
            !MessageDTO.thinkingTexts(message).isEmpty
                || message.toolResults.contains { result in
                    result.content.contains { if case .image = $0 { true } else { false } }
                }
        }
    }

    /// The sampling values as this API takes them: an effort of `max` as `xhigh`, its highest.
    private static func wireSampling(_ sampling: SamplingValues) -> SamplingValues {
        guard sampling[.effort] == .effort(.max) else { return sampling }
        var wire = sampling
        wire[.effort] = .effort(.xhigh)
        return wire
    }

    /// The wire's messages: one for each message, but a message of tool results (`Role.tool`),
    /// which is one `tool` message for each result.
    private static func messages(_ messages: [ChatMessage]) -> [MessageDTO] {
        var wire: [MessageDTO] = []
        wire.reserveCapacity(messages.count)
        for message in messages {
            guard message.role == .tool else {
                wire.append(MessageDTO(message))
                continue
            }
            for result in message.toolResults {
                wire.append(MessageDTO(role: "tool", content: .text(result.text), tool_call_id: result.callID))
            }
        }
        return wire
    }
}

extension ChatCompletionRequestDTO.MessageDTO {
    /// A message as the wire carries it: its text as a string; with images, a text part and an
    /// `image_url` part per image, its bytes in a `data:` URL (or a note where they are gone).
    /// Another provider's thinking blocks, which this API cannot take back, go before the text
    /// as `[thinking: …]` (a redacted block's opaque data is left out).
    init(_ message: ChatMessage) {
        role = message.role.rawValue
        let text = Self.text(message)
        let calls = message.role == .assistant ? message.toolCalls : []
        if !calls.isEmpty {
            tool_calls = calls.map {
                ChatCompletionRequestDTO.ToolCallDTO(
                    id: $0.id,
                    function: ChatCompletionRequestDTO.FunctionCallDTO(name: $0.name, arguments: $0.argumentsText))
            }
        }
        guard !message.images.isEmpty else {
            content = calls.isEmpty || !text.isEmpty ? .text(text) : .none
            return
        }
        typealias Part = ChatCompletionRequestDTO.PartDTO
        var parts: [Part] = text.isEmpty ? [] : [Part(type: "text", text: text)]
        for image in message.images {
            if let data = image.data {
                let url = "data:\(image.mimeType);base64,\(Base64.encode(data))"
                parts.append(Part(type: "image_url", image_url: ChatCompletionRequestDTO.ImageURLDTO(url: url)))
            } else {
                parts.append(Part(type: "text", text: image.unavailableNote))
            }
        }
        content = .parts(parts)
    }

    /// `message`'s text, after its thinking blocks' text (`[thinking: …]`) when it has any.
    private static func text(_ message: ChatMessage) -> String {
        let thinking = thinkingTexts(message)
        guard !thinking.isEmpty else { return message.content }
        return (thinking + (message.content.isEmpty ? [] : [message.content])).joined(separator: "\n\n")
    }

    /// Another provider's thinking blocks as they go here, as text: each signed block with text,
    /// each reasoning item's summary (a redacted block's or an encrypted item's opaque data, and
    /// an empty block, are left out: nothing of them is sent, so nothing is said of them).
    static func thinkingTexts(_ message: ChatMessage) -> [String] {
        message.thinkingBlocks.compactMap(\.textForAnotherProvider)
    }
}
