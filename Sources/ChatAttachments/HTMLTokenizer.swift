/// Reads an HTML page into tags and text, as forgiving as browsers are of what it meets: an
/// unmatched `<` is text, comments, doctypes and processing instructions are skipped, and the
/// content of `script`, `style`, `textarea` and `title` is raw text up to its end tag. Attribute
/// values may be quoted either way or not at all. No tree is built (`HTMLText` keeps the stack
/// it needs).
struct HTMLTokenizer: IteratorProtocol {
    private let bytes: [UInt8]
    private var index = 0
    /// Set after the start tag of an element whose content is raw text.
    private var rawTextEnd: String?

    init(_ html: String) {
        bytes = Array(html.utf8)
    }

    private static let rawTextElements: Set<String> = ["script", "style", "textarea", "title", "xmp"]

    mutating func next() -> HTMLToken? {
        if let name = rawTextEnd {
            rawTextEnd = nil
            let start = index
            let end = find(Array("</\(name)".utf8), from: index, caseless: true) ?? bytes.count
            index = end
            if end > start { return .text(decode(start, end)) }
        }
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                let start = index
                while index < bytes.count && bytes[index] != UInt8(ascii: "<") { index += 1 }
                return .text(HTMLEntities.decode(decode(start, index)))
            }
            if let token = tag() { return token }
        }
        return nil
    }

    /// The tag at `index` (a `<`), or nil after skipping a comment or declaration; a `<` that
    /// opens no tag comes back as text.
    private mutating func tag() -> HTMLToken? {
        let next = index + 1 < bytes.count ? bytes[index + 1] : 0
        if next == UInt8(ascii: "!") {
            if bytes[index...].starts(with: Array("<!--".utf8)) {
                index = (find(Array("-->".utf8), from: index + 4, caseless: false).map { $0 + 3 }) ?? bytes.count
            } else {
                skipPast(UInt8(ascii: ">"))
            }
            return nil
        }
        if next == UInt8(ascii: "?") {
            skipPast(UInt8(ascii: ">"))
            return nil
        }
        let closing = next == UInt8(ascii: "/")
        let nameStart = index + (closing ? 2 : 1)
        guard nameStart < bytes.count, Self.isLetter(bytes[nameStart]) else {
            index += 1
            return .text("<")
        }
        index = nameStart
        let name = readName()
        if closing {
            skipPast(UInt8(ascii: ">"))
            return .end(name)
        }
        let attributes = readAttributes()
        if Self.rawTextElements.contains(name) { rawTextEnd = name }
        return .start(name: name, attributes: attributes)
    }

    private mutating func readAttributes() -> [String: String] {
        var attributes: [String: String] = [:]
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ">") {
                index += 1
                break
            }
            if Self.isSpace(byte) || byte == UInt8(ascii: "/") {
                index += 1
                continue
            }
            let name = readName()
            guard !name.isEmpty else {
                index += 1
                continue
            }
            while index < bytes.count && Self.isSpace(bytes[index]) { index += 1 }
            var value = ""
            if index < bytes.count && bytes[index] == UInt8(ascii: "=") {
                index += 1
                while index < bytes.count && Self.isSpace(bytes[index]) { index += 1 }
                value = HTMLEntities.decode(readValue())
            }
            if attributes[name] == nil { attributes[name] = value }
        }
        return attributes
    }

    private mutating func readValue() -> String {
        guard index < bytes.count else { return "" }
        let quote = bytes[index]
        if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            let start = index + 1
            index = start
            while index < bytes.count && bytes[index] != quote { index += 1 }
            defer { index = min(index + 1, bytes.count) }
            return decode(start, index)
        }
        let start = index
        while index < bytes.count && !Self.isSpace(bytes[index]) && bytes[index] != UInt8(ascii: ">") { index += 1 }
        return decode(start, index)
    }

    /// A tag or attribute name, lowercased: up to a space, `/`, `>` or `=`.
    private mutating func readName() -> String {
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if Self.isSpace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "=")
            {
                break
            }
            index += 1
        }
        return decode(start, index).lowercased()
    }

    private mutating func skipPast(_ byte: UInt8) {
        while index < bytes.count && bytes[index] != byte { index += 1 }
        index = min(index + 1, bytes.count)
    }

    private func find(_ needle: [UInt8], from start: Int, caseless: Bool) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        var position = start
        while position + needle.count <= bytes.count {
            var matches = true
            for offset in 0..<needle.count {
                let byte = bytes[position + offset]
                let folded = caseless && byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
                if folded != needle[offset] {
                    matches = false
                    break
                }
            }
            if matches { return position }
            position += 1
        }
        return nil
    }

    private func decode(_ start: Int, _ end: Int) -> String {
        String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}
