import ChatDomain

/// Where a Markdown link (`[label](destination)`), image (`![label](destination)`) or autolink
/// (`<https://…>`, `<name@host>`) ends, read from bytes as they arrive. What is held waiting for
/// its end is limited, so a stray `[` or `<` holds nothing back for long.
enum LinkSyntax {
    /// What the bytes turned out to be.
    enum Scan: Equatable {
        /// More must arrive to tell.
        case more
        /// Not a link: its first byte is text.
        case literal
        /// A link: its label's bytes, its destination, and the index of its last byte.
        case link(label: Range<Int>, destination: String, end: Int)
    }

    /// How long a link's label may be held waiting for the rest; its destination, four times that.
    static let holdLimit = 600

    /// The link whose label starts at `labelStart` in `b` (after `[` or `![` at `b`'s start).
    /// `complete`: nothing more arrives on this line.
    static func link(_ b: ArraySlice<UInt8>, labelStart: Int, complete: Bool) -> Scan {
        let s = b.startIndex
        // The label, to its `]`.
        var i = labelStart
        var depth = 0
        var close: Int?
        while i < b.endIndex && i - s < holdLimit {
            let byte = b[i]
            if byte == UInt8(ascii: "\\") {
                i += 2
                continue
            }
            if byte == UInt8(ascii: "[") { depth += 1 }
            if byte == UInt8(ascii: "]") {
                if depth == 0 {
                    close = i
                    break
                }
                depth -= 1
            }
            i += 1
        }
        guard let close else { return complete || i - s >= holdLimit ? .literal : .more }
        guard close + 1 < b.endIndex else { return complete ? .literal : .more }
        guard b[close + 1] == UInt8(ascii: "(") else { return .literal }
        // The destination, to its `)`.
        var j = close + 2
        var parens = 0
        var end: Int?
        while j < b.endIndex && j - s < holdLimit * 4 {
            let byte = b[j]
            if byte == UInt8(ascii: "\\") {
                j += 2
                continue
            }
            if byte == UInt8(ascii: "(") { parens += 1 }
            if byte == UInt8(ascii: ")") {
                if parens == 0 {
                    end = j
                    break
                }
                parens -= 1
            }
            j += 1
        }
        guard let end else { return complete || j - s >= holdLimit * 4 ? .literal : .more }
        return .link(label: labelStart..<close, destination: destination(b[(close + 2)..<end]), end: end)
    }

    /// The autolink at the start of `b` (its `<`): a URL with a scheme, or an email address.
    static func autolink(_ b: ArraySlice<UInt8>, complete: Bool) -> Scan {
        let s = b.startIndex
        var i = s + 1
        var close: Int?
        while i < b.endIndex && i - s < holdLimit * 4 {
            let byte = b[i]
            if byte == UInt8(ascii: ">") {
                close = i
                break
            }
            if byte == 0x20 || byte == 0x09 || byte == UInt8(ascii: "<") { break }
            i += 1
        }
        guard let close else {
            return i == b.endIndex && !complete && i - s < holdLimit * 4 ? .more : .literal
        }
        let url = String(decoding: b[(s + 1)..<close], as: UTF8.self)
        let isURL = url.contains("@") || (url.firstIndex(of: ":").map { url[..<$0].allSatisfy(\.isLetter) } ?? false)
        guard isURL && !url.isEmpty else { return .literal }
        return .link(label: (s + 1)..<close, destination: url, end: close)
    }

    /// A link destination without its title or angle brackets.
    private static func destination(_ bytes: ArraySlice<UInt8>) -> String {
        guard let text = ASCIIText.trimmed(bytes) else { return destination(String(decoding: bytes, as: UTF8.self)) }
        // What `destination(_: String)` does, without walking grapheme clusters.
        if text.first == UInt8(ascii: "<"), let close = text.firstIndex(of: UInt8(ascii: ">")) {
            return String(decoding: text[(text.startIndex + 1)..<close], as: UTF8.self)
        }
        return String(decoding: text.prefix { $0 != 0x20 }, as: UTF8.self)
    }

    /// A link destination without its title or angle brackets.
    static func destination(_ text: String) -> String {
        let text = text.trimmingCharacters()
        if text.hasPrefix("<"), let close = text.firstIndex(of: ">") {
            return String(text[text.index(after: text.startIndex)..<close])
        }
        return String(text.prefix { $0 != " " })
    }
}
