/// The body of Anthropic's `POST /messages`, field for field, each listed once in `fields`;
/// written by `JSONText`, as the OpenAI request body is.
struct MessagesRequestDTO: JSONFields, Equatable {
    struct MessageDTO: JSONFields, Equatable {
        var role = ""
        var content: [BlockDTO] = []

        static let fields: [JSONField<Self>] = [
            JSONField("content", { $0.content }, { $0.content = $1 }), JSONField("role", { $0.role }, { $0.role = $1 }),
        ]
    }

    /// A content block: `{"type": "text", "text": …}` or `{"type": "image", "source": …}`, with a
    /// cache marker where prompt caching asks for one.
    struct BlockDTO: JSONFields, Equatable {
        var type = ""
        var text: String?
        var source: ImageSourceDTO?
        var cache_control: CacheControlDTO?

        static let fields: [JSONField<Self>] = [
            JSONField("type", { $0.type }, { $0.type = $1 }),
            JSONField("text", optional: { $0.text }, { $0.text = $1 }),
            JSONField("source", optional: { $0.source }, { $0.source = $1 }),
            JSONField("cache_control", optional: { $0.cache_control }, { $0.cache_control = $1 }),
        ].sortedByName()
    }

    /// An image's bytes: `{"type": "base64", "media_type": "image/png", "data": …}`.
    struct ImageSourceDTO: JSONFields, Equatable {
        var type = "base64"
        var media_type = ""
        var data = ""

        static let fields: [JSONField<Self>] = [
            JSONField("type", { $0.type }, { $0.type = $1 }),
            JSONField("media_type", { $0.media_type }, { $0.media_type = $1 }),
            JSONField("data", { $0.data }, { $0.data = $1 }),
        ].sortedByName()
    }

    /// `{"type": "ephemeral"}`: the prompt up to this block may be cached.
    struct CacheControlDTO: JSONFields, Equatable {
        var type = "ephemeral"

        static let fields: [JSONField<Self>] = [JSONField("type", { $0.type }, { $0.type = $1 })]
    }

    /// `{"type": "enabled", "budget_tokens": N}`: extended thinking with that budget.
    struct ThinkingDTO: JSONFields, Equatable {
        var type = "enabled"
        var budget_tokens = 0

        static let fields: [JSONField<Self>] = [
            JSONField("budget_tokens", { $0.budget_tokens }, { $0.budget_tokens = $1 }),
            JSONField("type", { $0.type }, { $0.type = $1 }),
        ]
    }

    var model = ""
    var max_tokens = 0
    var messages: [MessageDTO] = []
    /// The system prompt as text blocks (one, marked for caching when asked); nil without one.
    var system: [BlockDTO]?
    var stream = false
    var temperature: Double?
    var top_p: Double?
    var thinking: ThinkingDTO?

    static let fields: [JSONField<Self>] = [
        JSONField("model", { $0.model }, { $0.model = $1 }),
        JSONField("max_tokens", { $0.max_tokens }, { $0.max_tokens = $1 }),
        JSONField("messages", { $0.messages }, { $0.messages = $1 }),
        JSONField("system", optional: { $0.system }, { $0.system = $1 }),
        JSONField("stream", { $0.stream }, { $0.stream = $1 }),
        JSONField("temperature", optional: { $0.temperature }, { $0.temperature = $1 }),
        JSONField("top_p", optional: { $0.top_p }, { $0.top_p = $1 }),
        JSONField("thinking", optional: { $0.thinking }, { $0.thinking = $1 }),
    ].sortedByName()

    /// The body; nil if a number is not finite, which JSON cannot hold.
    var jsonBytes: [UInt8]? {
        let estimate = messages.reduce(160) { total, message in
            message.content.reduce(total + 32) {
                $0 + ($1.text?.utf8.count ?? 0) + ($1.source?.data.utf8.count ?? 0) + 48
            }
        }
        return jsonBytes(capacity: estimate)
    }
}
