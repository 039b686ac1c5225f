import ChatJSON

/// An image's fields in a `/save` file. (The history's `images` column still goes through
/// `Codable`, with the same bytes.)
extension StoredImageDTO: JSONFields {
    init() {
        self.init(path: "", mime_type: "", size: 0, sha256: "")
    }

    static let fields: [JSONField<Self>] = [
        JSONField("path", { $0.path }, { $0.path = $1 }),
        JSONField("mime_type", { $0.mime_type }, { $0.mime_type = $1 }),
        JSONField("size", { $0.size }, { $0.size = $1 }),
        JSONField("sha256", { $0.sha256 }, { $0.sha256 = $1 }),
    ].sortedByName()
}
