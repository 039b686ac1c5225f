import ChatCatalogue
import ChatDomain
import ChatJSON

/// The body of `POST /chat/completions`, field for field, each listed once in `fields`; written
/// by `JSONText`, several times faster on the way to the first byte than Foundation's coder
/// (measured: docs/PERFORMANCE.md).
struct ChatCompletionRequestDTO: JSONFields, Equatable {
    struct MessageDTO: JSONFields, Equatable {
        var role = ""
        var content = ContentDTO.text("")
        /// An answer's tool calls (`role` `assistant`).
        var tool_calls: [ToolCallDTO]?
        /// The call a result answers (`role` `tool`).
        var tool_call_id: String?

        static let fields: [JSONField<Self>] = [
            JSONField("content", { $0.content }, { $0.content = $1 }), JSONField("role", { $0.role }, { $0.role = $1 }),
            JSONField("tool_calls", optional: { $0.tool_calls }, { $0.tool_calls = $1 }),
            JSONField("tool_call_id", optional: { $0.tool_call_id }, { $0.tool_call_id = $1 }),
        ]
        .sortedByName()
    }

    /// A message's content: a string, or (with images) a list of parts; null for an answer that
    /// is only tool calls.
    enum ContentDTO: JSONRepresentable, Equatable {
        case text(String)
        case parts([PartDTO])
        case none

        func write(to json: inout JSONText) -> Bool {
            switch self {
            case .text(let text): text.write(to: &json)
            case .parts(let parts): parts.write(to: &json)
            case .none: JSONValue.null.write(to: &json)
            }
        }

        init?(json: JSONValue) {
            if let text = String(json: json) {
                self = .text(text)
            } else if let parts = [PartDTO](json: json) {
                self = .parts(parts)
            } else if json == .null {
                self = .none
            } else {
                return nil
            }
        }

        /// About how many bytes the content takes in the body (its text and image URLs).
        var byteCountEstimate: Int {
            switch self {
            case .text(let text): text.utf8.count
            case .parts(let parts):
                parts.reduce(0) {
                    $0 + ($1.text?.utf8.count ?? 0) + ($1.image_url?.url.utf8.count ?? 0)
                        + ($1.file?.file_data.utf8.count ?? 0) + 48
                }
            case .none: 0
            }
        }
    }

    /// A call in an answer sent back: `{"id": …, "type": "function", "function": {"name": …,
    /// "arguments": "<JSON text>"}}`.
    struct ToolCallDTO: JSONFields, Equatable {
        var id = ""
        var type = "function"
        var function = FunctionCallDTO()

        static let fields: [JSONField<Self>] = [
            JSONField("id", { $0.id }, { $0.id = $1 }), JSONField("type", { $0.type }, { $0.type = $1 }),
            JSONField("function", { $0.function }, { $0.function = $1 }),
        ].sortedByName()
    }

    struct FunctionCallDTO: JSONFields, Equatable {
        var name = ""
        var arguments = ""

        static let fields: [JSONField<Self>] = [
            JSONField("name", { $0.name }, { $0.name = $1 }),
            JSONField("arguments", { $0.arguments }, { $0.arguments = $1 }),
        ].sortedByName()
    }

    /// A tool offered: `{"type": "function", "function": {"name": …, "description": …,
    /// "parameters": <JSON Schema>}}`.
    struct ToolDTO: JSONFields, Equatable {
        var type = "function"
        var function = FunctionDTO()

        static let fields: [JSONField<Self>] = [
            JSONField("type", { $0.type }, { $0.type = $1 }),
            JSONField("function", { $0.function }, { $0.function = $1 }),
        ].sortedByName()
    }

    struct FunctionDTO: JSONFields, Equatable {
        var name = ""
        var description: String?
        var parameters = JSONValue.null

        static let fields: [JSONField<Self>] = [
            JSONField("name", { $0.name }, { $0.name = $1 }),
            JSONField("description", optional: { $0.description }, { $0.description = $1 }),
            JSONField("parameters", { $0.parameters }, { $0.parameters = $1 }),
        ].sortedByName()
    }

    /// `{"type": "text", "text": …}`, `{"type": "image_url", "image_url": {"url": …}}` or
    /// `{"type": "file", "file": {"filename": …, "file_data": "data:application/pdf;base64,…"}}`.
    struct PartDTO: JSONFields, Equatable {
        var type = ""
        var text: String?
        var image_url: ImageURLDTO?
        var file: FileDTO?

        static let fields: [JSONField<Self>] = [
            JSONField("type", { $0.type }, { $0.type = $1 }),
            JSONField("text", optional: { $0.text }, { $0.text = $1 }),
            JSONField("image_url", optional: { $0.image_url }, { $0.image_url = $1 }),
            JSONField("file", optional: { $0.file }, { $0.file = $1 }),
        ].sortedByName()
    }

    /// A file part's file: its name and its bytes as a `data:` URL.
    struct FileDTO: JSONFields, Equatable {
        var filename = ""
        var file_data = ""

        static let fields: [JSONField<Self>] = [
            JSONField("file_data", { $0.file_data }, { $0.file_data = $1 }),
            JSONField("filename", { $0.filename }, { $0.filename = $1 }),
        ]
    }

    struct ImageURLDTO: JSONFields, Equatable {
        var url = ""

        static let fields: [JSONField<Self>] = [JSONField("url", { $0.url }, { $0.url = $1 })]
    }

    struct StreamOptionsDTO: JSONFields, Equatable {
        var include_usage = false

        static let fields: [JSONField<Self>] = [
            JSONField("include_usage", { $0.include_usage }, { $0.include_usage = $1 })
        ]
    }

    /// `{"type": "json_schema", "json_schema": {"name": …, "strict": true, "schema": …}}`: the
    /// answer must be JSON that matches the schema (`--schema`).
    struct ResponseFormatDTO: JSONFields, Equatable {
        struct JSONSchemaDTO: JSONFields, Equatable {
            var name = ""
            var strict = true
            var schema = JSONValue.null

            static let fields: [JSONField<Self>] = [
                JSONField("name", { $0.name }, { $0.name = $1 }),
                JSONField("strict", { $0.strict }, { $0.strict = $1 }),
                JSONField("schema", { $0.schema }, { $0.schema = $1 }),
            ].sortedByName()
        }

        var type = "json_schema"
        var json_schema = JSONSchemaDTO()

        static let fields: [JSONField<Self>] = [
            JSONField("type", { $0.type }, { $0.type = $1 }),
            JSONField("json_schema", { $0.json_schema }, { $0.json_schema = $1 }),
        ].sortedByName()
    }

    var model = ""
    var messages: [MessageDTO] = []
    var stream = false
    var stream_options: StreamOptionsDTO?
    /// The sampling parameters set, each sent under its wire name (`SamplingTable`).
    var sampling = SamplingValues()
    var response_format: ResponseFormatDTO?
    /// The tools offered; left out when there are none.
    var tools: [ToolDTO]?
    /// Not sent: whether parts of the conversation this API cannot take (another provider's
    /// thinking blocks) went as text.
    var sentAsText = false

    static let fields: [JSONField<Self>] =
        ([
            JSONField("tools", optional: { $0.tools }, { $0.tools = $1 }),
            JSONField("model", { $0.model }, { $0.model = $1 }),
            JSONField("messages", { $0.messages }, { $0.messages = $1 }),
            JSONField("stream", { $0.stream }, { $0.stream = $1 }),
            JSONField("stream_options", optional: { $0.stream_options }, { $0.stream_options = $1 }),
            JSONField("response_format", optional: { $0.response_format }, { $0.response_format = $1 }),
        ] + SamplingTable.all.map { row in row.field(row.wireName, { $0.sampling }, { $0.sampling = $1 }) })
        .sortedByName()

    /// The body; nil if a number is not finite, which JSON cannot hold.
    var jsonBytes: [UInt8]? {
        jsonBytes(capacity: messages.reduce(160) { $0 + $1.content.byteCountEstimate + 32 })
    }
}
