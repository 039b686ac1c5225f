/// Renders the text of one Markdown line as it arrives, a token at a time, into a `RowWriter`:
/// emphasis, strong, strikethrough, code spans, links (the text, then the URL), autolinks,
/// escapes. A token whose look depends on what follows (a `*` run, a backtick run, a `[` that
/// may start a link) waits until that has arrived; words go to the writer at once, which holds
/// each until it ends. Emphasis still open at the end of the line ends there. The rules of
/// emphasis are `Emphasis`'s, where a link ends `LinkSyntax`'s.
struct InlineRenderer {
    let theme: MarkdownTheme
    private var emphasis = Emphasis()
    /// The length of the backtick run that opened the code span the text is in, or 0.
    private var code = 0
    private var previous = CharacterClass.space

    init(theme: MarkdownTheme) {
        self.theme = theme
    }

    /// The style text has now on top of `base`.
    func style(_ base: TextStyle) -> TextStyle {
        let style = emphasis.style(base)
        return code > 0 ? style.adding(0, colour: theme.inlineCode.colour) : style
    }

    /// Renders the token at the start of `b` (what has arrived of the line, without its newline;
    /// not empty) on top of `base`, inside the hyperlink `link` if any; returns the bytes it took,
    /// or nil when more must arrive first. `complete`: the line ends after `b`.
    mutating func token(
        _ b: ArraySlice<UInt8>, complete: Bool, base: TextStyle, link: String? = nil, into writer: inout RowWriter
    ) -> Int? {
        let s = b.startIndex
        let c = b[s]
        if code > 0 { return codeSpan(b, complete: complete, base: base, link: link, into: &writer) }
        switch c {
        case 0x20, 0x09:
            if c == 0x20, let taken = spacedWords(b, base: base, link: link, into: &writer) { return taken }
            let run = b.prefix { $0 == 0x20 || $0 == 0x09 }.count
            writer.space(run, style(base), link: link)
            previous = .space
            return run
        case UInt8(ascii: "\\"):
            guard s + 1 < b.endIndex else {
                guard complete else { return nil }
                writer.text(b[s...s], style(base), link: link)
                previous = .punctuation
                return 1
            }
            let next = b[s + 1]
            if CharacterClass.isPunctuation(next) {
                writer.text(b[(s + 1)...(s + 1)], style(base), link: link)
                previous = .punctuation
                return 2
            }
            writer.text(b[s...s], style(base), link: link)
            previous = .punctuation
            return 1
        case UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return delimiter(b, complete: complete, base: base, link: link, into: &writer)
        case UInt8(ascii: "`"):
            let run = b.prefix { $0 == c }.count
            guard s + run < b.endIndex || complete else { return nil }
            code = run
            previous = .punctuation
            return run
        case UInt8(ascii: "["), UInt8(ascii: "!"):
            return self.link(b, complete: complete, base: base, outer: link, into: &writer)
        case UInt8(ascii: "<"):
            return autolink(b, complete: complete, base: base, outer: link, into: &writer)
        default:
            return word(b, complete: complete, base: base, link: link, into: &writer)
        }
    }

    // MARK: Words

    private mutating func word(
        _ b: ArraySlice<UInt8>, complete: Bool, base: TextStyle, link: String?, into writer: inout RowWriter
    ) -> Int? {
        let s = b.startIndex
        // A lead byte of U+3000...U+AFFF: perhaps a run of CJK ideographs.
        if (0xE3...0xEA).contains(b[s]), let taken = ideographs(b, base: base, link: link, into: &writer) {
            return taken
        }
        var i = s
        var breakAfter = false
        // The word's cells when they are known without counting: ASCII bytes, then perhaps one
        // character a line may break after, which is two cells wide (it is wide, and no wide
        // character is zero-width or changes with what comes before it).
        var ascii = true
        var known: Int?
        // The word's ASCII run first, read through a buffer (most words are nothing else); the
        // loop below goes on from where it stops, as it would have.
        i += b.withUnsafeBufferPointer { buffer -> Int in
            var k = 0
            while k < buffer.count {
                let byte = buffer[k]
                if byte >= 0x80 || (k > 0 && Self.stops(byte)) { break }
                k += 1
            }
            return k
        }
        while i < b.endIndex {
            let byte = b[i]
            if byte < 0x80 {
                // The first byte never stops the word: `token` sent each stop byte elsewhere.
                if Self.stops(byte) && i > s { break }
                i += 1
                continue
            }
            let asciiBefore = ascii
            ascii = false
            let (scalar, length) = UTF8Scalars.decode(b, at: i)
            if Self.breaksAfter(scalar) {
                let after = i + length
                guard after < b.endIndex else {
                    if complete {
                        if asciiBefore { known = i - s + 2 }
                        i = after
                        break
                    }
                    // What follows decides whether a line may break after it.
                    if i == s { return nil }
                    break
                }
                let (next, _) = UTF8Scalars.decode(b, at: after)
                if !(CellWidth.isZeroWidth(next) || next == 0x200D || Self.closing(next)) {
                    if asciiBefore { known = i - s + 2 }
                    i = after
                    breakAfter = true
                    break
                }
            }
            i += length
        }
        let whole = breakAfter || (i < b.endIndex ? b[i] == 0x20 || b[i] == 0x09 : complete)
        if whole && !writer.holdsText {
            writer.word(b[s..<i], style(base), link: link, width: ascii ? i - s : known)
        } else {
            writer.text(b[s..<i], style(base), link: link)
            if breakAfter { writer.endWord() }
        }
        let last = b[i - 1]
        previous = last < 0x80 && CharacterClass.isPunctuation(last) ? .punctuation : .other
        return i - s
    }

    /// The spaces and whole ASCII words at the start of `b` (` and a sentence`) that fit on the
    /// row, each word followed by a space, placed at once (`RowWriter.placeWords`) as the
    /// tokens one at a time would place them: nil when there are none, or the writer holds
    /// something they would change (then the tokens go one at a time).
    private mutating func spacedWords(
        _ b: ArraySlice<UInt8>, base: TextStyle, link: String?, into writer: inout RowWriter
    ) -> Int? {
        guard writer.takesWords else { return nil }
        // The room left on the row, and the widest word `RowWriter.word` places whole.
        let room = writer.limit - writer.col
        let widest = max(writer.limit - writer.hanging.width, 1)
        let taken = b.withUnsafeBufferPointer { buffer -> Int in
            var taken = 0
            var i = 0
            while i < buffer.count && buffer[i] == 0x20 {
                while i < buffer.count && buffer[i] == 0x20 { i += 1 }
                let start = i
                // A word's first byte: not one that starts something else (`token` would send
                // it elsewhere), not a tab, ASCII.
                guard i < buffer.count, buffer[i] < 0x80, !Self.stops(buffer[i]) else { break }
                i += 1
                while i < buffer.count && buffer[i] < 0x80 && !Self.stops(buffer[i]) { i += 1 }
                // Whole (a space follows), a cell a byte, within a row and on this one.
                guard i < buffer.count, buffer[i] == 0x20, i - start <= widest, i <= room else { break }
                taken = i
            }
            return taken
        }
        guard taken > 0 else { return nil }
        let s = b.startIndex
        writer.placeWords(b[s..<(s + taken)], cells: taken, style(base), link: link)
        let last = b[s + taken - 1]
        previous = CharacterClass.isPunctuation(last) ? .punctuation : .other
        return taken
    }

    /// The CJK ideographs (`CellWidth.wideBlock`: two cells, a line may break after each) at the
    /// start of `b` that fit on the row, each followed by another, placed at once as `word`
    /// would place them one at a time (a word each, two cells): nil when there are none, or the
    /// writer holds something they would change. The last of a run waits for `word`, which
    /// reads what follows it (closing punctuation keeps it company).
    private mutating func ideographs(
        _ b: ArraySlice<UInt8>, base: TextStyle, link: String?, into writer: inout RowWriter
    ) -> Int? {
        guard writer.takesWords, writer.limit - writer.hanging.width >= 2 else { return nil }
        let room = writer.limit - writer.col
        let s = b.startIndex
        var i = s
        var cells = 0
        var (scalar, length) = UTF8Scalars.decode(b, at: i)
        while CellWidth.wideBlock.contains(scalar) && cells + 2 <= room && i + length < b.endIndex {
            let (next, nextLength) = UTF8Scalars.decode(b, at: i + length)
            guard CellWidth.wideBlock.contains(next) else { break }
            i += length
            cells += 2
            (scalar, length) = (next, nextLength)
        }
        guard cells > 0 else { return nil }
        writer.placeWords(b[s..<i], cells: cells, style(base), link: link)
        previous = .other
        return i - s
    }

    /// Bytes that end a word because they may start something else (a table's plain cells hold
    /// none but the space: `TableLayout.isPlain`).
    static func stops(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "`"),
            UInt8(ascii: "["), UInt8(ascii: "!"), UInt8(ascii: "<"), UInt8(ascii: "\\"):
            return true
        default:
            return false
        }
    }

    // MARK: Emphasis

    private mutating func delimiter(
        _ b: ArraySlice<UInt8>, complete: Bool, base: TextStyle, link: String?, into writer: inout RowWriter
    ) -> Int? {
        let s = b.startIndex
        let c = b[s]
        let run = b.prefix { $0 == c }.count
        guard s + run < b.endIndex || complete else { return nil }
        let next = s + run < b.endIndex ? CharacterClass(b[s + run]) : .space
        let remaining = emphasis.take(c, run: run, previous: previous, next: next)
        if remaining > 0 { writer.text(b[s..<(s + remaining)], style(base), link: link) }
        previous = .punctuation
        return run
    }

    // MARK: Code spans

    private mutating func codeSpan(
        _ b: ArraySlice<UInt8>, complete: Bool, base: TextStyle, link: String?, into writer: inout RowWriter
    ) -> Int? {
        let s = b.startIndex
        let c = b[s]
        if c == UInt8(ascii: "`") {
            let run = b.prefix { $0 == c }.count
            guard s + run < b.endIndex || complete else { return nil }
            if run == code {
                code = 0
                previous = .punctuation
            } else {
                writer.text(b[s..<(s + run)], style(base), link: link)
            }
            return run
        }
        if c == 0x20 || c == 0x09 {
            let run = b.prefix { $0 == 0x20 || $0 == 0x09 }.count
            writer.space(run, style(base), link: link)
            return run
        }
        let run = b.prefix { $0 != UInt8(ascii: "`") && $0 != 0x20 && $0 != 0x09 }.count
        writer.text(b[s..<(s + run)], style(base), link: link)
        return run
    }

    // MARK: Links

    private mutating func link(
        _ b: ArraySlice<UInt8>, complete: Bool, base: TextStyle, outer: String?, into writer: inout RowWriter
    ) -> Int? {
        let s = b.startIndex
        let literal = { (self: inout InlineRenderer, writer: inout RowWriter) -> Int in
            writer.text(b[s...s], self.style(base), link: outer)
            self.previous = .punctuation
            return 1
        }
        var labelStart = s + 1
        let image = b[s] == UInt8(ascii: "!")
        if image {
            guard s + 1 < b.endIndex else { return complete ? literal(&self, &writer) : nil }
            guard b[s + 1] == UInt8(ascii: "[") else { return literal(&self, &writer) }
            labelStart = s + 2
        } else if previous == .other || outer != nil {
            return literal(&self, &writer)
        }
        let (label, destination, end): (Range<Int>, String, Int)
        switch LinkSyntax.link(b, labelStart: labelStart, complete: complete) {
        case .more: return nil
        case .literal: return literal(&self, &writer)
        case .link(let range, let target, let last): (label, destination, end) = (range, target, last)
        }
        if image {
            writer.text(Array("image:".utf8)[...], theme.url, link: nil)
            writer.space(1)
            var inner = InlineRenderer(theme: theme)
            inner.render(b[label], base: base.adding(TextStyle.italic), link: nil, into: &writer)
        } else {
            let target = theme.hyperlinks ? Hyperlink.safeURL(destination) : nil
            var inner = InlineRenderer(theme: theme)
            inner.render(
                b[label], base: base.adding(theme.link.attributes, colour: theme.link.colour), link: target,
                into: &writer)
        }
        if !destination.isEmpty && String(decoding: b[label], as: UTF8.self) != destination {
            writer.space(1)
            writer.text(Array("(\(destination))".utf8)[...], theme.url, link: nil)
        }
        previous = .punctuation
        return end + 1 - s
    }

    private mutating func autolink(
        _ b: ArraySlice<UInt8>, complete: Bool, base: TextStyle, outer: String?, into writer: inout RowWriter
    ) -> Int? {
        let s = b.startIndex
        if previous != .other && outer == nil {
            switch LinkSyntax.autolink(b, complete: complete) {
            case .more:
                return nil
            case .link(let label, let url, let end):
                let target = theme.hyperlinks ? Hyperlink.safeURL(url) : nil
                writer.text(
                    b[label], style(base).adding(theme.link.attributes, colour: theme.link.colour), link: target)
                previous = .punctuation
                return end + 1 - s
            case .literal:
                break
            }
        }
        writer.text(b[s...s], style(base), link: outer)
        previous = .punctuation
        return 1
    }
    /// Renders complete text (a link's label, a table cell) from its start.
    mutating func render(_ b: ArraySlice<UInt8>, base: TextStyle, link: String?, into writer: inout RowWriter) {
        var i = b.startIndex
        while i < b.endIndex {
            guard let taken = token(b[i...], complete: true, base: base, link: link, into: &writer) else { break }
            i += max(taken, 1)
        }
        writer.endWord()
    }

    // MARK: Characters

    /// Whether a line may break after this scalar (unless closing punctuation follows): CJK
    /// ideographs, kana, Hangul syllables and fullwidth forms, which are written without spaces.
    /// Not emoji, whose sequences must stay whole.
    private static func breaksAfter(_ scalar: UInt32) -> Bool {
        (scalar < 0x1F000 || (0x20000...0x3FFFD).contains(scalar)) && CellWidth.isWide(scalar) && !opening(scalar)
    }

    /// Opening brackets and quotes of CJK text: no line break after them.
    private static func opening(_ scalar: UInt32) -> Bool {
        // All are in two blocks: most CJK text (ideographs) is in neither.
        guard (0x3008...0x301D).contains(scalar) || (0xFF08...0xFF5B).contains(scalar) else { return false }
        return [0x3008, 0x300A, 0x300C, 0x300E, 0x3010, 0x3014, 0x3016, 0x3018, 0x301D, 0xFF08, 0xFF3B, 0xFF5B]
            .contains(scalar)
    }

    /// Closing punctuation of CJK text: no line break before it.
    private static func closing(_ scalar: UInt32) -> Bool {
        // All are in two blocks: most CJK text (ideographs) is in neither.
        guard (0x3001...0x30FC).contains(scalar) || (0xFF01...0xFF5D).contains(scalar) else { return false }
        return [
            0x3001, 0x3002, 0x3009, 0x300B, 0x300D, 0x300F, 0x3011, 0x3015, 0x3017, 0x3019, 0x301E, 0x301F,
            0xFF01, 0xFF09, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B, 0xFF1F, 0xFF3D, 0xFF5D, 0x30FC, 0x3005,
        ].contains(scalar)
    }
}
