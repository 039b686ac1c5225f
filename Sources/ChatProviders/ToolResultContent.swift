import ChatDomain

/// A tool result as a provider without an error field sends it (OpenAI's Chat Completions and
/// Responses APIs): its text and images in order, texts next to each other joined by a line
/// break, each image sent or a note in its place (`SentImage`), and a failed call's content
/// beginning `Error:`. Anthropic's `tool_result` has `is_error` and blocks of its own.
struct ToolResultContent: Equatable {
    enum Piece: Equatable {
        case text(String)
        /// An image to send, as `SentImage.bytes`, and the image it is.
        case image(SentImage, ImageAttachment)
    }

    /// The pieces, in order; a text is never empty, and never next to another.
    private(set) var pieces: [Piece] = []

    /// What a failed call with no text of its own says.
    static let emptyErrorText = "Error: the call failed and said nothing more"

    /// `result`'s content, each image as `SentImage` has it for a model that takes images or not.
    init(_ result: ToolResult, takesImages: Bool) {
        for part in result.content {
            switch part {
            case .text(let text): append(text)
            case .image(let image):
                let sent = SentImage(image, takesImages: takesImages)
                switch sent {
                case .note(let note): append(note)
                case .pdf: append(SentImage.note(image, "not sent, a PDF goes only with a person's message"))
                case .bytes: pieces.append(.image(sent, image))
                }
            case .toolCall, .toolResult, .thinking, .webSearch, .citation: continue
            }
        }
        guard result.isError else { return }
        if case .text(let first)? = pieces.first {
            if !first.hasPrefix("Error:") { pieces[0] = .text("Error: " + first) }
        } else {
            pieces.insert(.text(pieces.isEmpty ? Self.emptyErrorText : "Error:"), at: 0)
        }
    }

    /// The images to send, in order.
    var images: [(sent: SentImage, image: ImageAttachment)] {
        pieces.compactMap { if case .image(let sent, let image) = $0 { (sent, image) } else { nil } }
    }

    /// The content as one text, each image to send replaced by `note(image)`.
    func text(replacingImages note: (ImageAttachment) -> String) -> String {
        pieces.map { piece in
            switch piece {
            case .text(let text): text
            case .image(_, let image): note(image)
            }
        }.joined(separator: "\n")
    }

    /// The content as one text, when it holds no image to send.
    var onlyText: String? {
        images.isEmpty ? text { _ in "" } : nil
    }

    /// Appends `text` (none if empty), joined to a text just before it.
    private mutating func append(_ text: String) {
        guard !text.isEmpty else { return }
        if case .text(let last)? = pieces.last {
            pieces[pieces.count - 1] = .text(last + "\n" + text)
        } else {
            pieces.append(.text(text))
        }
    }
}
