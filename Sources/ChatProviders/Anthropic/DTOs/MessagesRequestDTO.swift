import ChatDomain
import ChatJSON

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

    /// A content block: `text`, `image` (a base64 `source`), `thinking` (with its `signature`),
    /// `redacted_thinking` (its `data`), `tool_use` (`id`, `name`, `input`), `tool_result`
    /// (`tool_use_id`, `content` blocks, `is_error`), or a web search the server ran, sent back:
    /// `server_tool_use` (`id`, `name`, `input`) and `web_search_tool_result` (`tool_use_id`,
    /// `content` as the server sent it), with a cache marker where prompt caching
    /// asks for one; a `text` block may carry the `citations` it came with. Only the members its
    /// type has are set.
    struct BlockDTO: JSONFields, Equatable {
        var type = ""
        var text: String?
        var source: ImageSourceDTO?
        var thinking: String?
        var signature: String?
        var data: String?
        var id: String?
        var name: String?
        var input: JSONValue?
        var tool_use_id: String?
        var content: ContentDTO?
        var is_error: Bool?
        var cache_control: CacheControlDTO?
        var citations: [JSONValue]?

        static let fields: [JSONField<Self>] = [
            JSONField("type", { $0.type }, { $0.type = $1 }),
            JSONField("citations", optional: { $0.citations }, { $0.citations = $1 }),
            JSONField("text", optional: { $0.text }, { $0.text = $1 }),
            JSONField("source", optional: { $0.source }, { $0.source = $1 }),
            JSONField("thinking", optional: { $0.thinking }, { $0.thinking = $1 }),
            JSONField("signature", optional: { $0.signature }, { $0.signature = $1 }),
            JSONField("data", optional: { $0.data }, { $0.data = $1 }),
            JSONField("id", optional: { $0.id }, { $0.id = $1 }),
            JSONField("name", optional: { $0.name }, { $0.name = $1 }),
            JSONField("input", optional: { $0.input }, { $0.input = $1 }),
            JSONField("tool_use_id", optional: { $0.tool_use_id }, { $0.tool_use_id = $1 }),
            JSONField("content", optional: { $0.content }, { $0.content = $1 }),
            JSONField("is_error", optional: { $0.is_error }, { $0.is_error = $1 }),
            JSONField("cache_control", optional: { $0.cache_control }, { $0.cache_control = $1 }),
        ].sortedByName()

        /// Roughly how many bytes it takes written, for the body's first allocation.
        var estimatedSize: Int {
            let strings = [text, thinking, signature, data, id, name, tool_use_id].reduce(48) {
                $0 + ($1?.utf8.count ?? 0)
            }
            return strings + (source?.data.utf8.count ?? 0) + (input == nil ? 0 : 64)
                + (content?.estimatedSize ?? 0) + (citations?.count ?? 0) * 512
        }
    }

    /// A block's `content`: blocks (a `tool_result`'s), or a web search's results as the server
    /// sent them (a `web_search_tool_result`'s, encrypted content and all).
    enum ContentDTO: JSONRepresentable, Equatable {
        case blocks([BlockDTO])
        case asSent(JSONValue)

        func write(to json: inout JSONText) -> Bool {
            switch self {
            case .blocks(let blocks): blocks.write(to: &json)
            case .asSent(let value): value.write(to: &json)
            }
        }

        init?(json: JSONValue) {
            if let blocks = [BlockDTO](json: json) { self = .blocks(blocks) } else { self = .asSent(json) }
        }

        var estimatedSize: Int {
            switch self {
            case .blocks(let blocks): blocks.reduce(0) { $0 + $1.estimatedSize }
            case .asSent(let value): (value.array?.count ?? 1) * 1024
            }
        }
    }

    /// A tool the model may call: `{"name", "description", "input_schema"}`; or a server tool,
    /// `{"type", "name", "max_uses"}` (`web_search_20250305`).
    struct ToolDTO: JSONFields, Equatable {
        var type: String?
        var name = ""
        var description: String?
        var input_schema: JSONValue? = JSONValue.null
        var max_uses: Int?

        static let fields: [JSONField<Self>] = [
            JSONField("type", optional: { $0.type }, { $0.type = $1 }),
            JSONField("name", { $0.name }, { $0.name = $1 }),
            JSONField("description", optional: { $0.description }, { $0.description = $1 }),
            JSONField("input_schema", optional: { $0.input_schema }, { $0.input_schema = $1 }),
            JSONField("max_uses", optional: { $0.max_uses }, { $0.max_uses = $1 }),
        ].sortedByName()
    }

    /// `{"type": "tool", "name": …}`: the model must call that tool.
    struct ToolChoiceDTO: JSONFields, Equatable {
        var type = "tool"
        var name = ""

        static let fields: [JSONField<Self>] = [
            JSONField("name", { $0.name }, { $0.name = $1 }), JSONField("type", { $0.type }, { $0.type = $1 }),
        ]
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

    /// `{"type": "enabled", "budget_tokens": N}` (extended thinking with that budget), or
    /// `{"type": "adaptive", "display": "summarized"}` (the model decides, with the request's
    /// `output_config.effort`; `display` says whether its thinking text comes back).
    struct ThinkingDTO: JSONFields, Equatable {
        var type = "enabled"
        var budget_tokens: Int?
        var display: String?

        static let fields: [JSONField<Self>] = [
            JSONField("budget_tokens", optional: { $0.budget_tokens }, { $0.budget_tokens = $1 }),
            JSONField("display", optional: { $0.display }, { $0.display = $1 }),
            JSONField("type", { $0.type }, { $0.type = $1 }),
        ]
    }

    /// `{"effort": "high"}`: how hard an adaptive model thinks.
    struct OutputConfigDTO: JSONFields, Equatable {
        var effort = ""

        static let fields: [JSONField<Self>] = [JSONField("effort", { $0.effort }, { $0.effort = $1 })]
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
    var output_config: OutputConfigDTO?
    /// The tools offered; nil for none.
    var tools: [ToolDTO]?
    var tool_choice: ToolChoiceDTO?
    /// Not sent: parts of the conversation went as text (`MessagesRequestDTO+Messages`).
    var sentAsText = false

    static let fields: [JSONField<Self>] = [
        JSONField("model", { $0.model }, { $0.model = $1 }),
        JSONField("max_tokens", { $0.max_tokens }, { $0.max_tokens = $1 }),
        JSONField("messages", { $0.messages }, { $0.messages = $1 }),
        JSONField("system", optional: { $0.system }, { $0.system = $1 }),
        JSONField("stream", { $0.stream }, { $0.stream = $1 }),
        JSONField("temperature", optional: { $0.temperature }, { $0.temperature = $1 }),
        JSONField("top_p", optional: { $0.top_p }, { $0.top_p = $1 }),
        JSONField("thinking", optional: { $0.thinking }, { $0.thinking = $1 }),
        JSONField("output_config", optional: { $0.output_config }, { $0.output_config = $1 }),
        JSONField("tools", optional: { $0.tools }, { $0.tools = $1 }),
        JSONField("tool_choice", optional: { $0.tool_choice }, { $0.tool_choice = $1 }),
    ].sortedByName()

    /// The body; nil if a number is not finite, which JSON cannot hold.
    var jsonBytes: [UInt8]? {
        let estimate = messages.reduce(160 + (tools?.count ?? 0) * 512) { total, message in
            message.content.reduce(total + 32) { $0 + $1.estimatedSize }
        }
        return jsonBytes(capacity: estimate)
    }
}
