import ChatJSON

/// An attached image or PDF as the history and `/save` files keep it: what identifies it; for
/// one fetched from a URL (`fetched`), its bytes too: in the history's `fetched_file` table,
/// and in a `/save` or `--export` file as base64 (`data`), so the file stands on its own.
struct StoredImageDTO: JSONFields, Equatable {
    var path = ""
    var mime_type = ""
    var size = 0
    var sha256 = ""
    /// Fetched from a URL (`path`): its bytes are kept, not read again from a file.
    var fetched: Bool?
    /// A fetched file's bytes in base64, in exported files only.
    var data: String?

    static let fields: [JSONField<Self>] = [
        JSONField("path", { $0.path }, { $0.path = $1 }),
        JSONField("mime_type", { $0.mime_type }, { $0.mime_type = $1 }),
        JSONField("size", { $0.size }, { $0.size = $1 }),
        JSONField("sha256", { $0.sha256 }, { $0.sha256 = $1 }),
        JSONField("fetched", optional: { $0.fetched }, { $0.fetched = $1 }),
        JSONField("data", optional: { $0.data }, { $0.data = $1 }),
    ].sortedByName()
}
