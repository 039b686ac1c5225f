/// An attached image as the history and `/save` files keep it: what identifies it, never its
/// bytes.
struct StoredImageDTO: Codable, Equatable {
    var path: String
    var mime_type: String
    var size: Int
    var sha256: String
}
