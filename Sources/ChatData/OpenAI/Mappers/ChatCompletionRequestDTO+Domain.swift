import ChatDomain

extension ChatCompletionRequestDTO {
    /// The wire form of `request`; `includeUsage` asks a streaming server for a usage chunk.
    init(_ request: ChatRequest, includeUsage: Bool) {
        let settings = request.settings
        self.init(
            model: settings.model,
            messages: request.messages.map(MessageDTO.init),
            stream: settings.stream,
            stream_options: settings.stream && includeUsage ? StreamOptionsDTO(include_usage: true) : nil,
            sampling: settings.sampling,
            response_format: settings.responseSchema.map {
                ResponseFormatDTO(json_schema: ResponseFormatDTO.JSONSchemaDTO(name: $0.name, schema: $0.schema))
            }
        )
    }
}

extension ChatCompletionRequestDTO.MessageDTO {
    /// A message as the wire carries it: its text as a string; with images, a text part and an
    /// `image_url` part per image, its bytes in a `data:` URL (or a note where they are gone).
    init(_ message: ChatMessage) {
        role = message.role.rawValue
        guard !message.images.isEmpty else {
            content = .text(message.content)
            return
        }
        typealias Part = ChatCompletionRequestDTO.PartDTO
        var parts: [Part] = message.content.isEmpty ? [] : [Part(type: "text", text: message.content)]
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
}
