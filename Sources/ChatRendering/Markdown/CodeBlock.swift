/// A fenced code block of an answer: what `/copy N` copies and `--code` prints.
public struct CodeBlock: Sendable, Equatable {
    /// The language its fence names, or "".
    public var language: String
    /// Its lines, each ending with a newline.
    public var code: String

    /// The code blocks of a whole answer, in order (a block still open at the end counts).
    public static func all(in text: String) -> [CodeBlock] {
        var filter = CodeFenceFilter()
        var blocks: [CodeBlock] = []
        for line in filter.feed(text) + filter.finish() {
            switch line {
            case .opening(let language): blocks.append(CodeBlock(language: language, code: ""))
            case .code(let code): blocks[blocks.count - 1].code += code + "\n"
            case .prose, .closing: break
            }
        }
        return blocks
    }

    /// How many lines it has.
    public var lineCount: Int { Self.lineCount(of: code) }

    /// How many lines `text` has, a last one with no newline counted too.
    package static func lineCount(of text: String) -> Int {
        text.utf8.reduce(text.isEmpty || text.hasSuffix("\n") ? 0 : 1) { $1 == 0x0A ? $0 + 1 : $0 }
    }
}
