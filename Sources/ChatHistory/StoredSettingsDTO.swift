import ChatCatalogue
import ChatDomain
import ChatJSON

/// The sampling settings (and response schema) a conversation is stored with: in the history, as JSON in
/// `message.settings` (`{"max_tokens":7,"temperature":0.4}`); in a `/save` file, flat beside
/// `model` (`ConversationFileDTO`). Each parameter under its stored name (`SamplingTable`); unset
/// ones are left out. In the history, also the provider whose API answered, when it was not
/// the default one (`{"provider":"anthropic"}`; none for OpenAI's, as in every row stored before
/// there were others).
struct StoredSettingsDTO: JSONFields, Equatable {
    /// The response schema (`--schema`, `/schema`), when the conversation has one.
    struct ResponseSchemaDTO: JSONFields, Equatable {
        var name = ""
        var schema = JSONValue.null

        static let fields: [JSONField<Self>] = [
            JSONField("name", { $0.name }, { $0.name = $1 }), JSONField("schema", { $0.schema }, { $0.schema = $1 }),
        ]
    }

    var sampling = SamplingValues()
    var response_schema: ResponseSchemaDTO?
    var provider: String?

    /// The field of `response_schema`, which a `/save` file lists too.
    static func responseSchemaField<Root>(
        _ get: @escaping @Sendable (Root) -> ResponseSchemaDTO?,
        _ set: @escaping @Sendable (inout Root, ResponseSchemaDTO?) -> Void
    ) -> JSONField<Root> {
        JSONField("response_schema", optional: get, set)
    }

    static let fields: [JSONField<Self>] =
        (SamplingTable.all.map { row in
            row.field(row.storedName, { $0.sampling }, { $0.sampling = $1 })
        } + [
            responseSchemaField({ $0.response_schema }, { $0.response_schema = $1 }),
            JSONField("provider", optional: { $0.provider }, { $0.provider = $1 }),
        ])
        .sortedByName()

    /// The settings as the column holds them; nil if a number is not finite.
    var jsonBytes: [UInt8]? { jsonBytes(capacity: 64) }
}
