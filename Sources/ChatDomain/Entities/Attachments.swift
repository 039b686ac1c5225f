/// The files attached to the next message: text files, as fenced blocks after the text, and
/// images and PDFs (`ImageAttachment`), as parts of their own.
public struct Attachments: Sendable, Equatable {
    /// The text files, in the order given.
    public var texts: [TextAttachment]
    /// The images, in the order given.
    public var images: [ImageAttachment]

    /// Creates a set of attachments.
    public init(texts: [TextAttachment] = [], images: [ImageAttachment] = []) {
        self.texts = texts
        self.images = images
    }

    /// Whether nothing is attached.
    public var isEmpty: Bool { texts.isEmpty && images.isEmpty }

    /// How many files are attached.
    public var count: Int { texts.count + images.count }

    /// The bytes of text the text files hold, which the size limit counts.
    public var textByteCount: Int {
        texts.reduce(0) { $0 + $1.text.utf8.count }
    }

    /// These attachments and then `other`'s.
    public func adding(_ other: Attachments) -> Attachments {
        Attachments(texts: texts + other.texts, images: images + other.images)
    }

    /// The person's message of `text` with these attached: the text, then each text file's
    /// fenced block, a blank line apart; the images beside.
    public func message(with text: String) -> ChatMessage {
        let parts = [text].filter { !$0.isEmpty } + texts.map(\.fencedBlock)
        return ChatMessage(role: .user, content: parts.joined(separator: "\n\n"), images: images)
    }
}
