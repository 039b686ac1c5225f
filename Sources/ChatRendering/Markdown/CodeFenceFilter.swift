/// Follows fenced code blocks through Markdown as it streams, a line at a time, by the fence
/// rules `MarkdownStream` renders with (so `/copy 2` is the second block shown): says of each
/// complete line whether it is code, a fence, or the rest.
package struct CodeFenceFilter {
    /// One line of the answer, without its newline.
    package enum Line: Equatable {
        case prose(String)
        /// A fence opening a block, with the language its info string names ("" if none).
        case opening(language: String)
        case code(String)
        case closing
    }

    private var partial: [UInt8] = []
    private var fence: (marker: UInt8, count: Int, indent: Int, quoteDepth: Int)?

    /// The lines `text` completes.
    package mutating func feed(_ text: String) -> [Line] {
        partial += text.utf8
        var lines: [Line] = []
        var start = 0
        while let newline = partial[start...].firstIndex(of: 0x0A) {
            lines.append(line(partial[start..<newline]))
            start = newline + 1
        }
        partial.removeFirst(start)
        return lines
    }

    /// The last line, if the text did not end with a newline.
    package mutating func finish() -> [Line] {
        defer { partial.removeAll() }
        return partial.isEmpty ? [] : [line(partial[...])]
    }

    private mutating func line(_ bytes: ArraySlice<UInt8>) -> Line {
        let text = String(decoding: bytes, as: UTF8.self)
        if let open = fence {
            // Inside a block quote, a code line begins with the quote's markers (`> `).
            let content = Self.droppingQuoteMarkers(bytes, depth: open.quoteDepth)
            let spaces = content.prefix { $0 == 0x20 }.count
            let rest = content.dropFirst(spaces)
            let run = rest.prefix { $0 == open.marker }.count
            if spaces <= open.indent + 3 && run >= open.count
                && rest.dropFirst(run).allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D })
            {
                fence = nil
                return .closing
            }
            return .code(String(decoding: content.dropFirst(min(spaces, open.indent)), as: UTF8.self))
        }
        if let start = LineStart.read(bytes + [0x0A], final: true),
            case .fence(let marker, let count, let info) = start.kind
        {
            fence = (marker, count, start.indent, start.quoteDepth)
            return .opening(language: LineStart.language(ofFenceInfo: info))
        }
        return .prose(text)
    }

    /// `bytes` after up to `depth` block-quote markers (up to three spaces, `>`, one space), as
    /// `MarkdownStream` reads a quoted code line.
    private static func droppingQuoteMarkers(_ bytes: ArraySlice<UInt8>, depth: Int) -> ArraySlice<UInt8> {
        var rest = bytes
        for _ in 0..<depth {
            let spaces = rest.prefix { $0 == 0x20 }.count
            guard spaces <= 3, rest.dropFirst(spaces).first == UInt8(ascii: ">") else { break }
            rest = rest.dropFirst(spaces + 1)
            if rest.first == 0x20 { rest = rest.dropFirst() }
        }
        return rest
    }

    /// A filter at the start of an answer.
    package init() {}
}
