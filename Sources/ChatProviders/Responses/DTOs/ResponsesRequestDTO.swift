import ChatDomain
import ChatJSON

/// The body of OpenAI's `POST /responses`, field for field, each listed once in `fields`;
/// written by `JSONText`, as the other providers' bodies are. Stateless: `store` is false, and
/// every earlier answer goes back as input items, without the server's ids.
struct ResponsesRequestDTO: JSONFields, Equatable {
    /// One input item: a message (`role`, `content` parts), a `reasoning` item (its `summary`
    /// and `encrypted_content`), a `function_call` (`call_id`, `name`, `arguments`) or a
    /// `function_call_output` (`call_id`, `output`: text, or parts when it holds images), or a
    /// `web_search_call` the server ran (`status`, `action`). Only the members its type has are set.
    struct ItemDTO: JSONFields, Equatable {
        var type = ""
        var role: String?
        var content: [PartDTO]?
        var summary: [SummaryDTO]?
        var encrypted_content: String?
        var call_id: String?
        var name: String?
        var arguments: String?
        var output: OutputDTO?
        var status: String?
        var action: JSONValue?

        static let fields: [JSONField<Self>] = [
            JSONField("status", optional: { $0.status }, { $0.status = $1 }),
            JSONField("action", optional: { $0.action }, { $0.action = $1 }),
            JSONField("type", { $0.type }, { $0.type = $1 }),
            JSONField("role", optional: { $0.role }, { $0.role = $1 }),
            JSONField("content", optional: { $0.content }, { $0.content = $1 }),
            JSONField("summary", optional: { $0.summary }, { $0.summary = $1 }),
            JSONField("encrypted_content", optional: { $0.encrypted_content }, { $0.encrypted_content = $1 }),
            JSONField("call_id", optional: { $0.call_id }, { $0.call_id = $1 }),
            JSONField("name", optional: { $0.name }, { $0.name = $1 }),
            JSONField("arguments", optional: { $0.arguments }, { $0.arguments = $1 }),
            JSONField("output", optional: { $0.output }, { $0.output = $1 }),
        ].sortedByName()

        /// About how many bytes it takes written, for the body's first allocation.
        var estimatedSize: Int {
            [encrypted_content, arguments].reduce(48) { $0 + ($1?.utf8.count ?? 0) }
                + (content.map(PartDTO.estimatedSize) ?? 0) + (output?.estimatedSize ?? 0)
                + (summary?.reduce(0) { $0 + $1.text.utf8.count + 32 } ?? 0)
        }
    }

    /// A `function_call_output`'s `output`: a string, or (a result with images) a list of
    /// `input_text` and `input_image` parts, as the API takes since it took images from tools.
    enum OutputDTO: JSONRepresentable, Equatable {
        case text(String)
        case parts([PartDTO])

        func write(to json: inout JSONText) -> Bool {
            switch self {
            case .text(let text): text.write(to: &json)
            case .parts(let parts): parts.write(to: &json)
            }
        }

        init?(json: JSONValue) {
            if let text = String(json: json) {
                self = .text(text)
            } else if let parts = [PartDTO](json: json) {
                self = .parts(parts)
            } else {
                return nil
            }
        }

        var estimatedSize: Int {
            switch self {
            case .text(let text): text.utf8.count
            case .parts(let parts): PartDTO.estimatedSize(parts)
            }
        }
    }

    /// A message's content part: `input_text` or `output_text` (`text`), `input_image`
    /// (`image_url`, a data URL, and `detail`), `input_file` (`filename` and `file_data`, a data
    /// URL).
    struct PartDTO: JSONFields, Equatable {
        var type = ""
        var text: String?
        var image_url: String?
        var detail: String?
        var filename: String?
        var file_data: String?

        static let fields: [JSONField<Self>] = [
            JSONField("type", { $0.type }, { $0.type = $1 }),
            JSONField("text", optional: { $0.text }, { $0.text = $1 }),
            JSONField("image_url", optional: { $0.image_url }, { $0.image_url = $1 }),
            JSONField("detail", optional: { $0.detail }, { $0.detail = $1 }),
            JSONField("filename", optional: { $0.filename }, { $0.filename = $1 }),
            JSONField("file_data", optional: { $0.file_data }, { $0.file_data = $1 }),
        ].sortedByName()

        /// About how many bytes `parts` take written.
        static func estimatedSize(_ parts: [PartDTO]) -> Int {
            parts.reduce(0) {
                $0 + ($1.text?.utf8.count ?? 0) + ($1.image_url?.utf8.count ?? 0) + ($1.file_data?.utf8.count ?? 0) + 32
            }
        }
    }

    /// A part of a reasoning item's summary: `{"type": "summary_text", "text": …}`.
    struct SummaryDTO: JSONFields, Equatable {
        var type = "summary_text"
        var text = ""

        static let fields: [JSONField<Self>] = [
            JSONField("text", { $0.text }, { $0.text = $1 }), JSONField("type", { $0.type }, { $0.type = $1 }),
        ]
    }

    /// `{"effort": …, "summary": "auto"}`.
    struct ReasoningDTO: JSONFields, Equatable {
        var effort: String?
        var summary: String?

        static let fields: [JSONField<Self>] = [
            JSONField("effort", optional: { $0.effort }, { $0.effort = $1 }),
            JSONField("summary", optional: { $0.summary }, { $0.summary = $1 }),
        ]
    }

    /// A function tool, flat: `{"type": "function", "name", "description", "parameters", "strict"}`;
    /// or a tool of the server's own, its type alone (`{"type": "web_search"}`).
    struct ToolDTO: JSONFields, Equatable {
        var type = "function"
        var name: String? = ""
        var description: String?
        var parameters: JSONValue? = JSONValue.null
        /// Most MCP servers' schemas are not strict-compatible: false.
        var strict: Bool? = false

        static let fields: [JSONField<Self>] = [
            JSONField("type", { $0.type }, { $0.type = $1 }),
            JSONField("name", optional: { $0.name }, { $0.name = $1 }),
            JSONField("description", optional: { $0.description }, { $0.description = $1 }),
            JSONField("parameters", optional: { $0.parameters }, { $0.parameters = $1 }),
            JSONField("strict", optional: { $0.strict }, { $0.strict = $1 }),
        ].sortedByName()
    }

    /// `{"format": {"type": "json_schema", "name", "schema", "strict": true}}`.
    struct TextDTO: JSONFields, Equatable {
        struct FormatDTO: JSONFields, Equatable {
            var type = "json_schema"
            var name = ""
            var schema = JSONValue.null
            var strict = true

            static let fields: [JSONField<Self>] = [
                JSONField("type", { $0.type }, { $0.type = $1 }),
                JSONField("name", { $0.name }, { $0.name = $1 }),
                JSONField("schema", { $0.schema }, { $0.schema = $1 }),
                JSONField("strict", { $0.strict }, { $0.strict = $1 }),
            ].sortedByName()
        }

        var format = FormatDTO()

        static let fields: [JSONField<Self>] = [JSONField("format", { $0.format }, { $0.format = $1 })]
    }

    var model = ""
    var input: [ItemDTO] = []
    var instructions: String?
    var stream = false
    var store = false
    var max_output_tokens: Int?
    var temperature: Double?
    var top_p: Double?
    var reasoning: ReasoningDTO?
    var include: [String]?
    var tools: [ToolDTO]?
    var text: TextDTO?
    /// Not sent: parts of the conversation went as text.
    var sentAsText = false

    static let fields: [JSONField<Self>] = [
        JSONField("model", { $0.model }, { $0.model = $1 }),
        JSONField("input", { $0.input }, { $0.input = $1 }),
        JSONField("instructions", optional: { $0.instructions }, { $0.instructions = $1 }),
        JSONField("stream", { $0.stream }, { $0.stream = $1 }),
        JSONField("store", { $0.store }, { $0.store = $1 }),
        JSONField("max_output_tokens", optional: { $0.max_output_tokens }, { $0.max_output_tokens = $1 }),
        JSONField("temperature", optional: { $0.temperature }, { $0.temperature = $1 }),
        JSONField("top_p", optional: { $0.top_p }, { $0.top_p = $1 }),
        JSONField("reasoning", optional: { $0.reasoning }, { $0.reasoning = $1 }),
        JSONField("include", optional: { $0.include }, { $0.include = $1 }),
        JSONField("tools", optional: { $0.tools }, { $0.tools = $1 }),
        JSONField("text", optional: { $0.text }, { $0.text = $1 }),
    ].sortedByName()

    /// The body; nil if a number is not finite, which JSON cannot hold.
    var jsonBytes: [UInt8]? {
        jsonBytes(capacity: input.reduce(160 + (tools?.count ?? 0) * 512) { $0 + $1.estimatedSize })
    }
}
