import ChatJSON

/// An attached image or PDF as the history and `/save` files keep it: what identifies it, never
/// its bytes.
struct StoredImageDTO: JSONFields, Equatable {
    var path = ""
    var mime_type = ""
    var size = 0
    var sha256 = ""

    static let fields: [JSONField<Self>] = [
        JSONField("path", { $0.path }, { $0.path = $1 }),
        JSONField("mime_type", { $0.mime_type }, { $0.mime_type = $1 }),
        JSONField("size", { $0.size }, { $0.size = $1 }),
        JSONField("sha256", { $0.sha256 }, { $0.sha256 = $1 }),
    ].sortedByName()
}
