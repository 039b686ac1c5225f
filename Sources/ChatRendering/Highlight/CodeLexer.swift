/// Splits code into coloured tokens as it streams, a line at a time, by the rules of a
/// `CodeLanguage` (none: all plain). It is given what has arrived of the current line and says
/// how much of it makes the next token; a token whose kind depends on what follows (a word that
/// may grow into a keyword, a `/` that may start a comment) waits for more, unless the line is
/// complete. What spans lines (block comments, multi-line strings, an open tag) is carried in
/// its state, so the result does not depend on where the code was cut into pieces.
struct CodeLexer {
    private enum Mode: Equatable {
        case normal
        case lineComment
        case blockComment
        case string(Int, inTag: Bool)
        case tag
    }

    let language: CodeLanguage?
    private var mode = Mode.normal
    /// Nothing but spaces yet on this line.
    private var lineStart = true
    /// Where a key may stand: after spaces and list dashes at the start of a line.
    private var keyPosition = true
    private var afterSpace = true
    private var lineToken: CodeToken?

    init(language: CodeLanguage?) {
        self.language = language
    }

    /// A new line starts: what does not span lines ends.
    mutating func endLine() {
        switch mode {
        case .lineComment: mode = .normal
        case .string(let index, _) where index < 0 || language?.strings[index].multiline != true: mode = .normal
        default: break
        }
        lineStart = true
        keyPosition = true
        afterSpace = true
        lineToken = nil
    }

    /// The length and kind of the token at the start of `bytes` (what has arrived of the line,
    /// without its newline; not empty), or nil when more must arrive first. `complete`: the line
    /// ends after `bytes`.
    mutating func next(_ bytes: ArraySlice<UInt8>, complete: Bool) -> (length: Int, token: CodeToken)? {
        guard let language else { return (bytes.count, .plain) }
        if case .diff = language.lineRule { return diffLine(bytes) }
        switch mode {
        case .lineComment:
            return (bytes.count, .comment)
        case .blockComment:
            return blockComment(bytes, close: language.blockComment?.close ?? [], complete: complete)
        case .string(let index, let inTag):
            return string(bytes, rule: index >= 0 ? language.strings[index] : nil, inTag: inTag, complete: complete)
        case .tag:
            return tag(bytes, complete: complete)
        case .normal:
            guard let (length, token) = normal(bytes, language, complete: complete) else { return nil }
            let isSpace = bytes.first == 0x20 || bytes.first == 0x09
            if !isSpace {
                lineStart = false
                if !(token == .plain && bytes.first == 0x2D) { keyPosition = false }
            }
            afterSpace = isSpace
            return (length, token)
        }
    }

    private mutating func diffLine(_ bytes: ArraySlice<UInt8>) -> (Int, CodeToken) {
        if lineToken == nil {
            switch bytes.first {
            case UInt8(ascii: "+"): lineToken = .inserted
            case UInt8(ascii: "-"): lineToken = .deleted
            case UInt8(ascii: "@"): lineToken = .meta
            default: lineToken = .plain
            }
        }
        return (bytes.count, lineToken ?? .plain)
    }

    private mutating func normal(_ b: ArraySlice<UInt8>, _ language: CodeLanguage, complete: Bool) -> (
        Int, CodeToken
    )? {
        let start = b.startIndex
        let first = b[start]
        if first == 0x20 || first == 0x09 {
            return (b.prefix { $0 == 0x20 || $0 == 0x09 }.count, .plain)
        }
        if language.hashDirectives && lineStart && first == UInt8(ascii: "#") {
            guard let end = wordEnd(b, from: start + 1, language, complete: complete) else { return nil }
            if end > start + 1 { return (end - start, .meta) }
        }
        if !language.lineCommentAtWordStart || afterSpace {
            for opener in language.lineComments {
                switch match(b, opener) {
                case .yes:
                    mode = .lineComment
                    return (b.count, .comment)
                case .maybe where !complete: return nil
                default: break
                }
            }
        }
        if let comment = language.blockComment {
            switch match(b, comment.open) {
            case .yes:
                mode = .blockComment
                return (comment.open.count, .comment)
            case .maybe where !complete: return nil
            default: break
            }
        }
        for (index, rule) in language.strings.enumerated() {
            switch match(b, rule.open) {
            case .yes:
                mode = .string(index, inTag: false)
                return (rule.open.count, .string)
            case .maybe where !complete: return nil
            default: break
            }
        }
        if language.markup {
            return markupText(b, complete: complete)
        }
        if language.variables && first == UInt8(ascii: "$") {
            return variable(b, complete: complete)
        }
        if language.atAttributes && first == UInt8(ascii: "@") {
            guard let end = wordEnd(b, from: start + 1, language, complete: complete) else { return nil }
            return (max(end - start, 1), end > start + 1 ? .attribute : .plain)
        }
        if Self.isDigit(first) {
            var end = start
            while end < b.endIndex && (Self.isWordByte(b[end]) || b[end] == UInt8(ascii: ".")) { end += 1 }
            if end == b.endIndex && !complete { return nil }
            return (end - start, .number)
        }
        if Self.isWordStart(first) {
            guard let end = wordEnd(b, from: start, language, complete: complete) else { return nil }
            let word = String(decoding: b[start..<end], as: UTF8.self)
            if language.keys && keyPosition {
                var after = end
                while after < b.endIndex && (b[after] == 0x20 || b[after] == 0x09) { after += 1 }
                if after == b.endIndex && !complete { return nil }
                if after < b.endIndex
                    && (b[after] == UInt8(ascii: ":") && after == end || b[after] == UInt8(ascii: "="))
                {
                    return (end - start, .attribute)
                }
            }
            return (end - start, classify(word, language))
        }
        let length = UTF8Scalars.length(lead: first)
        return (min(length, b.count), .plain)
    }

    private func classify(_ word: String, _ language: CodeLanguage) -> CodeToken {
        let key = language.caseInsensitive ? word.lowercased() : word
        if let kind = language.wordKinds[key] { return kind }
        if language.capitalizedTypes, let first = word.utf8.first, (0x41...0x5A).contains(first) { return .type }
        return .plain
    }

    private mutating func variable(_ b: ArraySlice<UInt8>, complete: Bool) -> (Int, CodeToken)? {
        let start = b.startIndex
        guard start + 1 < b.endIndex else { return complete ? (1, .plain) : nil }
        let next = b[start + 1]
        if next == UInt8(ascii: "{") {
            guard let close = b[(start + 2)...].firstIndex(of: UInt8(ascii: "}")) else {
                return complete ? (b.count, .variable) : nil
            }
            return (close + 1 - start, .variable)
        }
        if Self.isWordStart(next) {
            var end = start + 1
            while end < b.endIndex && Self.isWordByte(b[end]) { end += 1 }
            if end == b.endIndex && !complete { return nil }
            return (end - start, .variable)
        }
        if Self.isDigit(next) || "?@#$!*-".utf8.contains(next) { return (2, .variable) }
        return (1, .plain)
    }

    private mutating func markupText(_ b: ArraySlice<UInt8>, complete: Bool) -> (Int, CodeToken)? {
        let start = b.startIndex
        let first = b[start]
        if first == UInt8(ascii: "<") {
            var end = start + 1
            if end < b.endIndex
                && (b[end] == UInt8(ascii: "/") || b[end] == UInt8(ascii: "?") || b[end] == UInt8(ascii: "!"))
            {
                end += 1
            }
            let nameStart = end
            while end < b.endIndex
                && (Self.isWordByte(b[end]) || b[end] == UInt8(ascii: "-") || b[end] == UInt8(ascii: ":"))
            {
                end += 1
            }
            if end == b.endIndex && !complete { return nil }
            guard end > nameStart else { return (1, .plain) }
            mode = .tag
            return (end - start, .keyword)
        }
        if first == UInt8(ascii: "&") {
            var end = start + 1
            while end < b.endIndex && end - start < 12 && (Self.isWordByte(b[end]) || b[end] == UInt8(ascii: "#")) {
                end += 1
            }
            if end == b.endIndex && !complete && end - start < 12 { return nil }
            if end < b.endIndex && b[end] == UInt8(ascii: ";") { return (end + 1 - start, .literal) }
            return (1, .plain)
        }
        var end = start
        while end < b.endIndex && b[end] != UInt8(ascii: "<") && b[end] != UInt8(ascii: "&") { end += 1 }
        return (end - start, .plain)
    }

    private mutating func tag(_ b: ArraySlice<UInt8>, complete: Bool) -> (Int, CodeToken)? {
        let start = b.startIndex
        let first = b[start]
        if first == UInt8(ascii: ">") {
            mode = .normal
            return (1, .keyword)
        }
        if first == UInt8(ascii: "/") || first == UInt8(ascii: "?") {
            guard start + 1 < b.endIndex else { return complete ? (1, .plain) : nil }
            if b[start + 1] == UInt8(ascii: ">") {
                mode = .normal
                return (2, .keyword)
            }
            return (1, .plain)
        }
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            let index = language?.strings.firstIndex { $0.open == [first] }
            if let index {
                mode = .string(index, inTag: true)
            } else {
                mode = .string(-1, inTag: true)
                quote = first
            }
            return (1, .string)
        }
        if Self.isWordStart(first) {
            var end = start
            while end < b.endIndex
                && (Self.isWordByte(b[end]) || b[end] == UInt8(ascii: "-") || b[end] == UInt8(ascii: ":"))
            {
                end += 1
            }
            if end == b.endIndex && !complete { return nil }
            return (end - start, .attribute)
        }
        return (min(UTF8Scalars.length(lead: first), b.count), .plain)
    }

    /// The quote that opened an attribute value in markup, whose language declares no strings.
    private var quote: UInt8 = 0

    private mutating func string(_ b: ArraySlice<UInt8>, rule: CodeLanguage.StringRule?, inTag: Bool, complete: Bool)
        -> (Int, CodeToken)?
    {
        let close = rule?.close ?? [quote]
        let escapes = rule?.escapes ?? false
        var index = b.startIndex
        while index < b.endIndex {
            if escapes && b[index] == UInt8(ascii: "\\") {
                if index + 1 < b.endIndex {
                    index += 2
                    continue
                }
                if complete { return (b.count, .string) }
                break
            }
            switch match(b[index...], close) {
            case .yes:
                mode = inTag ? .tag : .normal
                return (index + close.count - b.startIndex, .string)
            case .maybe where !complete:
                return index > b.startIndex ? (index - b.startIndex, .string) : nil
            default:
                index += 1
            }
        }
        let length = index - b.startIndex
        return length > 0 ? (length, .string) : (complete ? (b.count, .string) : nil)
    }

    private mutating func blockComment(_ b: ArraySlice<UInt8>, close: [UInt8], complete: Bool) -> (Int, CodeToken)? {
        var index = b.startIndex
        while index < b.endIndex {
            switch match(b[index...], close) {
            case .yes:
                mode = .normal
                return (index + close.count - b.startIndex, .comment)
            case .maybe where !complete:
                return index > b.startIndex ? (index - b.startIndex, .comment) : nil
            default:
                index += 1
            }
        }
        return (b.count, .comment)
    }

    // MARK: Bytes

    private enum Match { case yes, maybe, no }

    /// Whether `b` starts with `word`, or could once more arrives.
    private func match(_ b: ArraySlice<UInt8>, _ word: [UInt8]) -> Match {
        guard !word.isEmpty else { return .no }
        if let first = b.first, first != word[0] { return .no }
        if b.count >= word.count { return b.prefix(word.count).elementsEqual(word) ? .yes : .no }
        return word.starts(with: b) ? .maybe : .no
    }

    private func wordEnd(_ b: ArraySlice<UInt8>, from start: Int, _ language: CodeLanguage, complete: Bool) -> Int? {
        var end = start
        while end < b.endIndex
            && (Self.isWordByte(b[end]) || (language.dashInWords && end > start && b[end] == UInt8(ascii: "-")))
        {
            end += 1
        }
        if end == b.endIndex && !complete { return nil }
        return end
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    private static func isWordStart(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        isWordStart(byte) || isDigit(byte)
    }
}
