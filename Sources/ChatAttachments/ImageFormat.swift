/// The image formats vision models take, and PDFs, known by their first bytes, never by the
/// file's name.
enum ImageFormat {
    /// The MIME type of the image `bytes` hold (PNG, JPEG, GIF or WebP), or nil.
    static func mimeType(of bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return "image/gif" }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return "image/webp"
        }
        return nil
    }

    /// The largest image chat attaches (OpenAI's limit per image).
    static let maximumBytes = 20 * 1_048_576

    /// Whether `bytes` are a PDF's: `%PDF-` first, never the file's name.
    static func isPDF(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: Array("%PDF-".utf8))
    }

    /// The largest PDF chat attaches (Anthropic's and OpenAI's limit per request and per file).
    static let maximumPDFBytes = 32 * 1_048_576
}
