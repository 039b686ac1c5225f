import ChatCatalogue
import ChatJSON

/// A conversation as `/save` writes it: JSON, versioned so later releases can read old files.
/// Each field is listed once in `fields`; written by `JSONText` (indented, keys sorted) and read
/// from `JSONParser`'s value, for a long conversation a fraction of Foundation's coders' work
/// (measured: docs/PERFORMANCE.md). A required field missing, or any field of the wrong type, is
/// an error; an optional one may be missing or null.
struct ConversationFileDTO: JSONFields, Equatable {
    struct MessageDTO: JSONFields, Equatable {
        var role = ""
        var content = ""
        var state: String?
        var reasoning: String?
        var usage: UsageFileDTO?
        /// The images sent with it: what identifies them; a fetched one's bytes too (base64).
        var images: [StoredImageDTO]?
        /// Every part, in order, when its text and images do not say it all: an answer's tool
        /// calls, a `tool` message's results (as the history's `parts` column keeps them).
        var parts: [StoredPartDTO]?
        /// The profile and model that gave the answer in place of the conversation's own
        /// (`fallback`).
        var answered_by: String?
        var answered_model: String?
        /// true: the answer's stream broke and was resumed where it stopped.
        var resumed: Bool?

        static let fields: [JSONField<Self>] = [
            JSONField("role", { $0.role }, { $0.role = $1 }), JSONField("content", { $0.content }, { $0.content = $1 }),
            JSONField("state", optional: { $0.state }, { $0.state = $1 }),
            JSONField("reasoning", optional: { $0.reasoning }, { $0.reasoning = $1 }),
            JSONField("usage", optional: { $0.usage }, { $0.usage = $1 }),
            JSONField("images", optional: { $0.images }, { $0.images = $1 }),
            JSONField("parts", optional: { $0.parts }, { $0.parts = $1 }),
            JSONField("answered_by", optional: { $0.answered_by }, { $0.answered_by = $1 }),
            JSONField("answered_model", optional: { $0.answered_model }, { $0.answered_model = $1 }),
            JSONField("resumed", optional: { $0.resumed }, { $0.resumed = $1 }),
        ].sortedByName()
    }

    struct UsageFileDTO: JSONFields, Equatable {
        var prompt_tokens = 0
        var completion_tokens = 0
        var total_tokens = 0

        static let fields: [JSONField<Self>] = [
            JSONField("prompt_tokens", { $0.prompt_tokens }, { $0.prompt_tokens = $1 }),
            JSONField("completion_tokens", { $0.completion_tokens }, { $0.completion_tokens = $1 }),
            JSONField("total_tokens", { $0.total_tokens }, { $0.total_tokens = $1 }),
        ].sortedByName()
    }

    var format = ""
    var version = 0
    var model = ""
    var system_prompt: String?
    /// Written flat, beside `model`, as version 1 wrote `temperature` and `max_tokens`.
    var settings = StoredSettingsDTO()
    var messages: [MessageDTO] = []

    static let fields: [JSONField<Self>] =
        ([
            JSONField("format", { $0.format }, { $0.format = $1 }),
            JSONField("version", { $0.version }, { $0.version = $1 }),
            JSONField("model", { $0.model }, { $0.model = $1 }),
            JSONField("system_prompt", optional: { $0.system_prompt }, { $0.system_prompt = $1 }),
            JSONField("messages", { $0.messages }, { $0.messages = $1 }),
        ]
        + SamplingTable.all.map { row in
            row.field(row.storedName, { $0.settings.sampling }, { $0.settings.sampling = $1 })
        }
        + [
            StoredSettingsDTO.responseSchemaField(
                { $0.settings.response_schema }, { $0.settings.response_schema = $1 }),
            // The provider whose API answered, when not OpenAI's (as the history keeps it).
            JSONField("provider", optional: { $0.settings.provider }, { $0.settings.provider = $1 }),
        ]).sortedByName()
}
