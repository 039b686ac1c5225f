import ChatDomain
import ChatJSON
import ChatSystem

extension StoredImageDTO {
    init(_ image: ImageAttachment) {
        self.init(path: image.path, mime_type: image.mimeType, size: image.byteCount, sha256: image.sha256)
    }

    /// The image, its bytes read again from its file if that is still there unchanged.
    func toDomain(home: String?) -> ImageAttachment {
        ImageFile.reread(
            ImageAttachment(path: path, mimeType: mime_type, byteCount: size, sha256: sha256), home: home)
    }

    /// `images` as the history's `images` column holds them: a JSON array, or nil for none.
    static func column(_ images: [ImageAttachment]) -> String? {
        guard !images.isEmpty, let bytes = images.map(StoredImageDTO.init).jsonBytes(capacity: 128) else {
            return nil
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The images in an `images` column (none when it is NULL or cannot be read), read again.
    static func images(inColumn text: String?) -> [ImageAttachment] {
        guard let text, let stored = [StoredImageDTO](jsonBytes: Array(text.utf8)) else { return [] }
        return stored.map { $0.toDomain(home: nil) }
    }
}
