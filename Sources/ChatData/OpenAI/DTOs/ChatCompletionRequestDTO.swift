/// The body of `POST /chat/completions`, field for field.
struct ChatCompletionRequestDTO: Encodable, Equatable {
    struct MessageDTO: Codable, Equatable {
        var role: String
        var content: String
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
        var json = JSONText(capacity: messages.reduce(160) { $0 + $1.content.utf8.count + 32 })
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
            json.string(message.content)
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
