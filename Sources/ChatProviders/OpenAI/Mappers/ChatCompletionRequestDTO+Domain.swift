import ChatDomain

extension ChatCompletionRequestDTO {
    /// The wire form of `request`; `includeUsage` asks a streaming server for a usage chunk;
    /// `takesImages` false sends a note in each image's place (`images: false`).
    init(_ request: ChatRequest, includeUsage: Bool, takesImages: Bool = true) {
        let settings = request.settings
        self.init(
            model: settings.model,
            messages: Self.messages(request.messages, takesImages: takesImages),
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
        sentAsText = request.messages.contains { !MessageDTO.thinkingTexts($0).isEmpty }
    }

    /// The sampling values as this API takes them: an effort of `max` as `xhigh`, its highest.
    private static func wireSampling(_ sampling: SamplingValues) -> SamplingValues {
        guard sampling[.effort] == .effort(.max) else { return sampling }
        var wire = sampling
        wire[.effort] = .effort(.xhigh)
        return wire
    }

    /// The wire's messages: one for each message, but a message of tool results (`Role.tool`),
    /// which is one `tool` message for each result (a failed call's beginning `Error:`, the
    /// tool message having no field for it), and then, when the results hold images, a user
    /// message of them: a tool message takes only text, so each image there is a note that
    /// says it follows (`ToolResultContent`).
    private static func messages(_ messages: [ChatMessage], takesImages: Bool) -> [MessageDTO] {
        var wire: [MessageDTO] = []
        wire.reserveCapacity(messages.count)
        var names: [String: String] = [:]
        for message in messages {
            guard message.role == .tool else {
                for call in message.toolCalls { names[call.id] = call.name }
                wire.append(MessageDTO(message, takesImages: takesImages))
                continue
            }
            var images: [PartDTO] = []
            for result in message.toolResults {
                let content = ToolResultContent(result, takesImages: takesImages)
                let text = content.text { SentImage.note($0, "sent in the next message") }
                wire.append(MessageDTO(role: "tool", content: .text(text), tool_call_id: result.callID))
                images += imageParts(content, of: result.callID, name: names[result.callID])
            }
            guard !images.isEmpty else { continue }
            wire.append(
                MessageDTO(
                    role: "user", content: .parts([PartDTO(type: "text", text: toolImagesLead)] + images)))
        }
        return wire
    }

    /// What the user message of a round's images says first: whose they are.
    static let toolImagesLead = "Images from the tool results above:"

    /// The images of the result of call `id` (of tool `name`, when known), each after a text part
    /// that names the call it came from.
    private static func imageParts(_ content: ToolResultContent, of id: String, name: String?) -> [PartDTO] {
        let images = content.images
        let call = id + (name.map { " (\($0))" } ?? "")
        var parts: [PartDTO] = []
        for (index, image) in images.enumerated() {
            guard let url = image.sent.dataURL else { continue }
            let label = images.count == 1 ? "the image of \(call):" : "image \(index + 1) of \(call):"
            parts.append(PartDTO(type: "text", text: label))
            parts.append(PartDTO(type: "image_url", image_url: ImageURLDTO(url: url)))
        }
        return parts
    }
}

extension ChatCompletionRequestDTO.MessageDTO {
    /// A message as the wire carries it: its text as a string; with images, a text part and an
    /// `image_url` part per image, its bytes in a `data:` URL (or a note where they are gone, or
    /// the model takes none: `SentImage`), and a `file` part per PDF. Another provider's thinking blocks, which this API
    /// cannot take back, go before the text as `[thinking: …]` (a redacted block's opaque data
    /// is left out).
    init(_ message: ChatMessage, takesImages: Bool = true) {
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
            let sent = SentImage(image, takesImages: takesImages)
            if let url = sent.dataURL {
                parts.append(Part(type: "image_url", image_url: ChatCompletionRequestDTO.ImageURLDTO(url: url)))
            } else if case .pdf(let name, _) = sent, let url = sent.pdfDataURL {
                parts.append(Part(type: "file", file: ChatCompletionRequestDTO.FileDTO(filename: name, file_data: url)))
            } else if case .note(let note) = sent {
                parts.append(Part(type: "text", text: note))
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
