import ChatDomain

/// An attached image or PDF read from its file: once when it is attached, and again when a
/// stored conversation that holds it is continued.
package enum ImageFile {
    /// The attachment for the image `bytes` read from `path` (or fetched from it, a URL:
    /// `fetched`, kept whole by the history).
    package static func attachment(path: String, mimeType: String, bytes: [UInt8], fetched: Bool = false)
        -> ImageAttachment
    {
        ImageAttachment(
            path: path, mimeType: mimeType, byteCount: bytes.count, sha256: SHA256.hex(bytes), data: bytes,
            fetched: fetched)
    }

    /// `image` with its bytes read again from its path (`~/` expanded with `home`), if the file is
    /// still there with the same SHA-256; else without bytes.
    package static func reread(_ image: ImageAttachment, home: String?) -> ImageAttachment {
        var reread = image
        reread.data = nil
        let path = FileSystem.expandingTilde(image.path, home: home)
        guard FileSystem.size(path).map({ $0 == image.byteCount }) ?? false,
            let bytes = try? FileSystem.read(path), SHA256.hex(bytes) == image.sha256
        else { return reread }
        reread.data = bytes
        return reread
    }
}
