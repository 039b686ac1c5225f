import ChatDomain

/// How an image goes to a model, whoever sent it (a person, a tool): its bytes as they are, of
/// the type its part names (never sniffed, never decoded), or a note in its place — when its
/// bytes are gone (a conversation continued from the history), when the profile's model takes
/// no images (`images: false`), or when no provider's API takes its type. A PDF goes as a file
/// of its own (`pdf`), whatever `images` says. The same words whichever provider sends it.
enum SentImage: Equatable {
    /// The image itself: its type and bytes.
    case bytes(mimeType: String, data: [UInt8])
    /// A PDF: its file name (without directories) and bytes.
    case pdf(fileName: String, data: [UInt8])
    /// A note in the image's place.
    case note(String)

    /// The types every provider's API takes (OpenAI's and Anthropic's alike).
    static let takenTypes: Set<String> = ["image/png", "image/jpeg", "image/gif", "image/webp"]

    /// How `image` goes to a model that takes images (`takesImages`) or not.
    init(_ image: ImageAttachment, takesImages: Bool) {
        guard let data = image.data else {
            self = .note(image.unavailableNote)
            return
        }
        if image.isPDF {
            self = .pdf(fileName: image.fileName, data: data)
            return
        }
        guard takesImages else {
            self = .note(Self.note(image, "not sent, this model takes no images (images: false)"))
            return
        }
        let type = image.mimeType.lowercased()
        guard Self.takenTypes.contains(type) else {
            self = .note(Self.note(image, "not sent, the API takes PNG, JPEG, GIF and WebP images only"))
            return
        }
        self = .bytes(mimeType: type, data: data)
    }

    /// The image as a `data:` URL (base64), for the OpenAI APIs; nil for a note or a PDF.
    var dataURL: String? {
        guard case .bytes(let type, let data) = self else { return nil }
        return "data:\(type);base64,\(Base64.encode(data))"
    }

    /// The PDF as a `data:` URL (base64), for the OpenAI APIs' `file_data`; nil for an image or
    /// a note.
    var pdfDataURL: String? {
        guard case .pdf(_, let data) = self else { return nil }
        return "data:\(ImageAttachment.pdfMimeType);base64,\(Base64.encode(data))"
    }

    /// `[image/png, 71 bytes: WHAT]`: what a request says in the place of `image`.
    static func note(_ image: ImageAttachment, _ what: String) -> String {
        "[\(image.mimeType), \(image.byteCount) bytes: \(what)]"
    }
}
