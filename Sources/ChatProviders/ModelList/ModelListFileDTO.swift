/// The model lists kept in the data directory (`models.json`): one per server, with when it was
/// fetched.
struct ModelListFileDTO: Codable, Equatable {
    struct EntryDTO: Codable, Equatable {
        /// Seconds since 1970.
        var fetched_at: Double
        var models: [ModelDTO]
    }

    struct ModelDTO: Codable, Equatable {
        var id: String
        var owned_by: String?
    }

    var version: Int
    /// By the server's base URL.
    var servers: [String: EntryDTO]
}
