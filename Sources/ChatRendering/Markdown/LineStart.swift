import ChatDomain

/// What a Markdown line is, decided from its first bytes: quote markers, indentation, then a
/// heading, fence, rule, list item, table row, blank line or paragraph text. Most lines are
/// decided within a few bytes; a fence or table row needs its whole line, a possible rule
/// (`---`, `* * *`) until a byte that is not part of one.
struct LineStart: Equatable {
    enum Kind: Equatable {
        case blank
        case heading(level: Int)
        case fence(marker: UInt8, count: Int, info: String)
        case rule(heavy: Bool)
        case bullet(task: Bool?)
        case ordered(number: String, task: Bool?)
        /// A line starting with `|`: its bytes from the first `|`, without the newline.
        case tableRow([UInt8])
        case paragraph
    }

    var quoteDepth = 0
    /// Columns of indentation after the quote markers (a tab counts to the next multiple of 4).
    var indent = 0
    var kind = Kind.paragraph
    /// Bytes the line start takes: for paragraphs, headings and list items up to their text;
    /// for the rest, the whole line with its newline.
    var length = 0

    /// The language a fence's info string names: its first word (`python` in `python {.x}`).
    static func language(ofFenceInfo info: String) -> String {
        if info.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII, where a character is a byte: the same, without walking grapheme clusters.
            return String(decoding: info.utf8.prefix { $0 != 0x20 && $0 != 0x7B && $0 != 0x2C }, as: UTF8.self)
        }
        return String(info.prefix { $0 != " " && $0 != "{" && $0 != "," })
    }

    /// The start of the line at the start of `b` (bytes as they have arrived), or nil when
    /// more must arrive first. With `final`, nothing more arrives: the end of `b` ends the line.
    static func read(_ b: ArraySlice<UInt8>, final: Bool) -> LineStart? {
        var line = LineStart()
        var i = b.startIndex
        let end = b.endIndex
        var spaces = 0
        while true {
            spaces = 0
            while i < end && (b[i] == 0x20 || b[i] == 0x09) {
                spaces = b[i] == 0x09 ? (spaces / 4 + 1) * 4 : spaces + 1
                i += 1
            }
            if i < end && b[i] == UInt8(ascii: ">") && spaces < 4 {
                line.quoteDepth += 1
                i += 1
                if i < end && b[i] == 0x20 { i += 1 }
                continue
            }
            break
        }
        line.indent = spaces
        guard i < end else {
            guard final else { return nil }
            line.kind = .blank
            line.length = i - b.startIndex
            return line
        }
        let decision: Decision
        switch b[i] {
        case 0x0A: decision = .kind(.blank, through: i + 1)
        case UInt8(ascii: "#"): decision = heading(b, at: i, final: final)
        case UInt8(ascii: "`"), UInt8(ascii: "~"): decision = fence(b, at: i, final: final)
        case UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "+"):
            decision = bulletOrRule(b, at: i, final: final)
        case UInt8(ascii: "="): decision = heavyRule(b, at: i, final: final)
        case UInt8(ascii: "0")...UInt8(ascii: "9"): decision = ordered(b, at: i, final: final)
        case UInt8(ascii: "|"):
            guard let (content, next) = lineEnd(b, from: i, final: final) else { return nil }
            decision = .kind(.tableRow(Array(b[i..<content])), through: next)
        default: decision = .paragraph
        }
        switch decision {
        case .more:
            return nil
        case .paragraph:
            line.length = i - b.startIndex
        case .kind(let kind, let through):
            line.kind = kind
            line.length = through - b.startIndex
        }
        return line
    }

    /// What the bytes after the line's indentation decided.
    private enum Decision {
        /// More must arrive to tell.
        case more
        /// Paragraph text, which starts where they do.
        case paragraph
        /// A line of `kind`, whose start takes the bytes up to `through`.
        case kind(Kind, through: Int)
    }

    /// The index of the line's newline and the index after it, the end of `b` (twice) when
    /// `final`, or nil.
    private static func lineEnd(_ b: ArraySlice<UInt8>, from index: Int, final: Bool) -> (content: Int, next: Int)? {
        if let newline = b[index...].firstIndex(of: 0x0A) { return (newline, newline + 1) }
        return final ? (b.endIndex, b.endIndex) : nil
    }

    /// `#` at `i`: a heading of up to six, followed by a space or the line's end.
    private static func heading(_ b: ArraySlice<UInt8>, at i: Int, final: Bool) -> Decision {
        let run = b[i...].prefix { $0 == UInt8(ascii: "#") }.count
        guard i + run < b.endIndex else {
            return final ? (run <= 6 ? .kind(.heading(level: run), through: b.endIndex) : .paragraph) : .more
        }
        let next = b[i + run]
        guard run <= 6 else { return .paragraph }
        if next == 0x20 || next == 0x09 { return .kind(.heading(level: run), through: i + run + 1) }
        if next == 0x0A { return .kind(.heading(level: run), through: i + run) }
        return .paragraph
    }

    /// A backtick or tilde at `i`: a fence of three or more, with its info string.
    private static func fence(_ b: ArraySlice<UInt8>, at i: Int, final: Bool) -> Decision {
        let c = b[i]
        let run = b[i...].prefix { $0 == c }.count
        guard i + run < b.endIndex || final else { return .more }
        guard run >= 3 else { return .paragraph }
        guard let (content, next) = lineEnd(b, from: i + run, final: final) else { return .more }
        let info =
            ASCIIText.trimmed(b[(i + run)..<content]).map { String(decoding: $0, as: UTF8.self) }
            ?? String(decoding: b[(i + run)..<content], as: UTF8.self).trimmingCharacters()
        if c == UInt8(ascii: "`") {
            // ASCII (a byte a character): the bytes say it, without walking grapheme clusters.
            let ascii = info.utf8.allSatisfy { $0 < 0x80 }
            if ascii ? info.utf8.contains(UInt8(ascii: "`")) : info.contains("`") { return .paragraph }
        }
        return .kind(.fence(marker: c, count: run, info: info), through: next)
    }

    /// `-`, `*`, `_` or `+` at `i`: a rule (three or more of the first three, spaces between
    /// allowed) or a bullet (any but `_`, then a space).
    private static func bulletOrRule(_ b: ArraySlice<UInt8>, at i: Int, final: Bool) -> Decision {
        let c = b[i]
        let end = b.endIndex
        if c != UInt8(ascii: "+") {
            var j = i
            var count = 0
            while j < end && (b[j] == c || b[j] == 0x20 || b[j] == 0x09) {
                if b[j] == c { count += 1 }
                j += 1
            }
            if j == end && !final { return .more }
            if count >= 3 && (j == end || b[j] == 0x0A) {
                return .kind(.rule(heavy: false), through: j == end ? end : j + 1)
            }
        }
        guard c != UInt8(ascii: "_") else { return .paragraph }
        guard i + 1 < end else { return final ? .kind(.bullet(task: nil), through: end) : .more }
        let next = b[i + 1]
        if next == 0x0A { return .kind(.bullet(task: nil), through: i + 1) }
        guard next == 0x20 || next == 0x09 else { return .paragraph }
        guard let (task, taken) = taskBox(b, at: i + 2, final: final) else { return .more }
        return .kind(.bullet(task: task), through: i + 2 + taken)
    }

    /// `=` at `i`: a heavy rule if the line holds nothing else.
    private static func heavyRule(_ b: ArraySlice<UInt8>, at i: Int, final: Bool) -> Decision {
        let end = b.endIndex
        var j = i
        while j < end && b[j] == UInt8(ascii: "=") { j += 1 }
        while j < end && (b[j] == 0x20 || b[j] == 0x09) { j += 1 }
        if j == end && !final { return .more }
        if j == end || b[j] == 0x0A { return .kind(.rule(heavy: true), through: j == end ? end : j + 1) }
        return .paragraph
    }

    /// A digit at `i`: a numbered item (up to nine digits, `.` or `)`, then a space).
    private static func ordered(_ b: ArraySlice<UInt8>, at i: Int, final: Bool) -> Decision {
        let end = b.endIndex
        var j = i
        while j < end && j - i < 10 && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b[j]) { j += 1 }
        guard j < end else { return final ? .paragraph : .more }
        guard j - i <= 9, b[j] == UInt8(ascii: ".") || b[j] == UInt8(ascii: ")") else { return .paragraph }
        let number = String(decoding: b[i...j], as: UTF8.self)
        guard j + 1 < end else { return final ? .kind(.ordered(number: number, task: nil), through: end) : .more }
        let next = b[j + 1]
        if next == 0x0A { return .kind(.ordered(number: number, task: nil), through: j + 1) }
        guard next == 0x20 || next == 0x09 else { return .paragraph }
        guard let (task, taken) = taskBox(b, at: j + 2, final: final) else { return .more }
        return .kind(.ordered(number: number, task: task), through: j + 2 + taken)
    }

    /// A task box (`[ ] `, `[x] `) at `index`: whether it is ticked (nil: none) and its length;
    /// nil when more must arrive to tell.
    private static func taskBox(_ b: ArraySlice<UInt8>, at index: Int, final: Bool) -> (Bool?, Int)? {
        let available = b[min(index, b.endIndex)...].prefix(4)
        for form in taskForms {
            if available.elementsEqual(form.text) { return (form.ticked, 4) }
            if available.count < 4 && form.text.starts(with: available) && !available.isEmpty {
                if final { return (nil, 0) }
                return nil
            }
        }
        if available.isEmpty && !final { return nil }
        return (nil, 0)
    }

    private static let taskForms: [(text: [UInt8], ticked: Bool)] = [
        (Array("[ ] ".utf8), false), (Array("[x] ".utf8), true), (Array("[X] ".utf8), true),
    ]
}
