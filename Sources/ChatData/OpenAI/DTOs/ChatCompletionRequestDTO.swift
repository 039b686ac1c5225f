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
