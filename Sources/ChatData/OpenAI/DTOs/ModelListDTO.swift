/// What chat uses of the answer to `GET /models`: each model's id and owner.
struct ModelListDTO {
    struct ModelDTO {
        var id: String
        var owned_by: String?
    }

    var data: [ModelDTO]
}

extension ModelListDTO {
    /// The list in `json`, if it has a `data` array; entries without a string `id` are left out.
    init?(json: JSONValue) {
        guard let entries = json["data"]?.array else { return nil }
        data = entries.compactMap { entry in
            entry["id"]?.string.map { ModelDTO(id: $0, owned_by: entry["owned_by"]?.string) }
        }
    }
}
