import ChatDomain

/// The sampling settings a conversation is stored with: in the history, as JSON in
/// `message.settings` (`{"max_tokens":7,"temperature":0.4}`); in a `/save` file, flat beside
/// `model` (`ConversationFileDTO`). Each parameter under its stored name (`SamplingTable`); unset
/// ones are left out. In the history, also the provider whose API answered, when it was not
/// the default one (`{"provider":"anthropic"}`; none for OpenAI's, as in every row stored before
/// there were others).
struct StoredSettingsDTO: JSONFields, Equatable {
    var sampling = SamplingValues()
    var provider: String?

    static let fields: [JSONField<Self>] =
        (SamplingTable.all.map { row in
            row.field(row.storedName, { $0.sampling }, { $0.sampling = $1 })
        } + [JSONField("provider", optional: { $0.provider }, { $0.provider = $1 })])
        .sortedByName()

    /// The settings as the column holds them; nil if a number is not finite.
    var jsonBytes: [UInt8]? { jsonBytes(capacity: 64) }
}
