import ChatJSON

/// The model lists kept in the data directory (`models.json`): one per server, with when it was
/// fetched.
struct ModelListFileDTO: JSONFields, Equatable {
    struct EntryDTO: JSONFields, Equatable {
        /// Seconds since 1970.
        var fetched_at = 0.0
        var models: [ModelDTO] = []

        static let fields: [JSONField<Self>] = [
            JSONField("fetched_at", { $0.fetched_at }, { $0.fetched_at = $1 }),
            JSONField("models", { $0.models }, { $0.models = $1 }),
        ]
    }

    struct ModelDTO: JSONFields, Equatable {
        var id = ""
        var owned_by: String?

        static let fields: [JSONField<Self>] = [
            JSONField("id", { $0.id }, { $0.id = $1 }),
            JSONField("owned_by", optional: { $0.owned_by }, { $0.owned_by = $1 }),
        ]
    }

    var version = 1
    /// By the server's base URL.
    var servers: [String: EntryDTO] = [:]

    static let fields: [JSONField<Self>] = [
        JSONField("servers", { $0.servers }, { $0.servers = $1 }),
        JSONField("version", { $0.version }, { $0.version = $1 }),
    ]
}
