import ChatDomain
import ChatJSON
import ChatSystem

extension StoredImageDTO {
    /// What identifies `image`; a fetched one's bytes in base64 too when `withBytes` (an
    /// exported file: the history keeps them in a table of their own).
    init(_ image: ImageAttachment, withBytes: Bool = false) {
        self.init(
            path: image.path, mime_type: image.mimeType, size: image.byteCount, sha256: image.sha256,
            fetched: image.fetched ? true : nil,
            data: withBytes && image.fetched ? image.data.map { Base64.encode($0) } : nil)
    }

    /// The image: a fetched one with its bytes from `data` or, without them, from `keptBytes`
    /// (the history's, by SHA-256); any other read again from its file if that is still there
    /// unchanged. Bytes that are not the ones stored (size or SHA-256) are not used.
    func toDomain(home: String?, keptBytes: ((String) -> [UInt8]?)? = nil) -> ImageAttachment {
        let image = ImageAttachment(path: path, mimeType: mime_type, byteCount: size, sha256: sha256)
        guard fetched == true else { return ImageFile.reread(image, home: home) }
        var kept = image
        kept.fetched = true
        if let bytes = data.flatMap(Base64.decode) ?? keptBytes?(sha256), bytes.count == size,
            data == nil || SHA256.hex(bytes) == sha256
        {
            kept.data = bytes
        }
        return kept
    }

    /// `images` as the history's `images` column holds them: a JSON array, or nil for none.
    static func column(_ images: [ImageAttachment]) -> String? {
        guard !images.isEmpty, let bytes = images.map({ StoredImageDTO($0) }).jsonBytes(capacity: 128) else {
            return nil
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The images in an `images` column (none when it is NULL or cannot be read), read again;
    /// a fetched one's bytes from `keptBytes`.
    static func images(inColumn text: String?, keptBytes: ((String) -> [UInt8]?)? = nil) -> [ImageAttachment] {
        guard let text, let stored = [StoredImageDTO](jsonBytes: Array(text.utf8)) else { return [] }
        return stored.map { $0.toDomain(home: nil, keptBytes: keptBytes) }
    }
}
