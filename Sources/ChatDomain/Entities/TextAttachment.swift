/// A text file attached to a message: it goes in as a fenced block headed by its path.
public struct TextAttachment: Sendable, Equatable {
    /// The path as given (`-` for standard input).
    public var path: String
    /// The file's text.
    public var text: String

    /// Creates a text attachment.
    public init(path: String, text: String) {
        self.path = path
        self.text = text
    }

    /// The block the message carries: the path on a line of its own, then the text in a code
    /// fence longer than any run of backticks in it, so the text cannot close it.
    public var fencedBlock: String {
        var longest = 0
        var run = 0
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: max(3, longest + 1))
        let body = text.hasSuffix("\n") ? text : text + "\n"
        return "\(path)\n\(fence)\n\(body)\(fence)"
    }
}
