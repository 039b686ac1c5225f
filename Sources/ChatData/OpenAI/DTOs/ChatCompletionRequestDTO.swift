/// The body of `POST /chat/completions`, field for field.
struct ChatCompletionRequestDTO: Encodable, Equatable {
    struct MessageDTO: Encodable, Equatable {
        var role: String
        var content: ContentDTO
    }

    /// A message's content: a string, or (with images) a list of parts.
    enum ContentDTO: Encodable, Equatable {
        case text(String)
        case parts([PartDTO])

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let text): try container.encode(text)
            case .parts(let parts): try container.encode(parts)
            }
        }
    }

    /// `{"type": "text", "text": …}` or `{"type": "image_url", "image_url": {"url": …}}`.
    struct PartDTO: Encodable, Equatable {
        var type: String
        var text: String?
        var image_url: ImageURLDTO?
    }

    struct ImageURLDTO: Encodable, Equatable {
        var url: String
    }

    struct StreamOptionsDTO: Encodable, Equatable {
        var include_usage: Bool
    }

    var model: String
    var messages: [MessageDTO]
    var stream: Bool
    var stream_options: StreamOptionsDTO?
    var temperature: Double?
    var max_tokens: Int?
    var top_p: Double?
}

extension ChatCompletionRequestDTO {
    /// The body as `JSON.encoder()` encodes it, byte for byte, written directly (the messages
    /// of a long conversation are most of it); nil if a number is not finite, which JSON
    /// cannot hold.
    var jsonBytes: [UInt8]? {
        var json = JSONText(capacity: messages.reduce(160) { $0 + $1.content.byteCountEstimate + 32 })
        json.raw("{")
        if let max_tokens {
            json.key("max_tokens")
            json.int(max_tokens)
            json.raw(",")
        }
        json.key("messages")
        json.raw("[")
        for (index, message) in messages.enumerated() {
            if index > 0 { json.raw(",") }
            json.raw("{")
            json.key("content")
            message.content.write(to: &json)
            json.raw(",")
            json.key("role")
            json.string(message.role)
            json.raw("}")
        }
        json.raw("],")
        json.key("model")
        json.string(model)
        json.raw(",")
        json.key("stream")
        json.bool(stream)
        if let stream_options {
            json.raw(",")
            json.key("stream_options")
            json.raw("{")
            json.key("include_usage")
            json.bool(stream_options.include_usage)
            json.raw("}")
        }
        if let temperature {
            json.raw(",")
            json.key("temperature")
            guard json.double(temperature) else { return nil }
        }
        if let top_p {
            json.raw(",")
            json.key("top_p")
            guard json.double(top_p) else { return nil }
        }
        json.raw("}")
        return json.bytes
    }
}

extension ChatCompletionRequestDTO.ContentDTO {
    /// About how many bytes the content takes in the body (its text and image URLs).
    var byteCountEstimate: Int {
        switch self {
        case .text(let text): text.utf8.count
        case .parts(let parts):
            parts.reduce(0) { $0 + ($1.text?.utf8.count ?? 0) + ($1.image_url?.url.utf8.count ?? 0) + 48 }
        }
    }

    /// Writes the content as `JSON.encoder()` does: a string, or the parts with their keys sorted.
    func write(to json: inout JSONText) {
        switch self {
        case .text(let text):
            json.string(text)
        case .parts(let parts):
            json.raw("[")
            for (index, part) in parts.enumerated() {
                if index > 0 { json.raw(",") }
                json.raw("{")
                if let image_url = part.image_url {
                    json.key("image_url")
                    json.raw("{")
                    json.key("url")
                    json.string(image_url.url)
                    json.raw("},")
                }
                if let text = part.text {
                    json.key("text")
                    json.string(text)
                    json.raw(",")
                }
                json.key("type")
                json.string(part.type)
                json.raw("}")
            }
            json.raw("]")
        }
    }
}
