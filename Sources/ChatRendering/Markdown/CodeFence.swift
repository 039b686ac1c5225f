/// A fenced code block being rendered: how it was opened (its marker run, indentation and quote
/// depth), the prefix its rows start with, and the lexer that highlights it. Its code is written
/// as it is, never re-wrapped, with tabs expanded.
struct CodeFence {
    /// What the start of a line inside the fence turned out to be.
    enum Line: Equatable {
        /// More must arrive to tell.
        case more
        /// The closing fence: the next line starts at `next`.
        case closing(next: Int)
        /// A line of code, whose text starts at `start`.
        case code(start: Int)
    }

    let marker: UInt8
    let count: Int
    let indent: Int
    let quoteDepth: Int
    let prefix: RowPrefix
    private var lexer: CodeLexer
    /// Columns of code written on the current line, for tab stops.
    private var column = 0

    /// The fence a line of `count` `marker`s opened, indented by `indent` inside `quoteDepth`
    /// quotes; its rows start with `prefix`, its code is highlighted as `language` (a name).
    init(marker: UInt8, count: Int, indent: Int, quoteDepth: Int, prefix: RowPrefix, language: String) {
        self.marker = marker
        self.count = count
        self.indent = indent
        self.quoteDepth = quoteDepth
        self.prefix = prefix
        lexer = CodeLexer(language: CodeLanguages.named(language))
    }

    /// Writes the frame above the code, naming `language` if there is one.
    func writeTop(language: String, theme: MarkdownTheme, into writer: inout RowWriter) {
        writer.startRow(prefix)
        writer.raw(Self.frame[...], theme.codeFrame, width: 3)
        if !language.isEmpty {
            writer.raw(Array(" \(language)".utf8)[...], theme.codeLanguage, width: 1 + CellWidth.of(language))
        }
        writer.endLine()
    }

    /// Writes the frame below the code.
    func writeBottom(theme: MarkdownTheme, into writer: inout RowWriter) {
        writer.startRow(prefix)
        writer.raw(Self.frame[...], theme.codeFrame, width: 3)
        writer.endLine()
    }

    private static let frame = Array("───".utf8)

    /// What the line at the start of `b` (bytes as they have arrived) is: the closing fence or
    /// code. With `final`, nothing more arrives.
    func line(at b: ArraySlice<UInt8>, final: Bool) -> Line {
        var i = b.startIndex
        let end = b.endIndex
        var quotes = 0
        while quotes < quoteDepth {
            var j = i
            while j < end && b[j] == 0x20 && j - i < 3 { j += 1 }
            guard j < end else { if final { break } else { return .more } }
            guard b[j] == UInt8(ascii: ">") else { break }
            i = j + 1
            if i < end && b[i] == 0x20 { i += 1 }
            quotes += 1
        }
        let contentStart = i
        var spaces = 0
        while i < end && b[i] == 0x20 {
            spaces += 1
            i += 1
        }
        if i == end && !final { return .more }
        if spaces <= indent + 3 && i < end && b[i] == marker {
            var j = i
            while j < end && b[j] == marker { j += 1 }
            let run = j - i
            while j < end && (b[j] == 0x20 || b[j] == 0x09) { j += 1 }
            if j == end && !final { return .more }
            if run >= count && (j == end || b[j] == 0x0A) { return .closing(next: j == end ? end : j + 1) }
        }
        return .code(start: contentStart + min(spaces, indent))
    }

    /// A line of code starts.
    mutating func startLine() {
        column = 0
    }

    /// The line of code has ended.
    mutating func endLine() {
        lexer.endLine()
    }

    /// Writes the tokens at the start of `b` (what has arrived of the line, without its newline;
    /// not empty), highlighted, as far as the lexer can tell them; returns the bytes taken, or
    /// nil when more must arrive first. `complete`: the line ends after `b`. Tokens of one style
    /// one after another are written as one run: the bytes and cells the tokens one at a time
    /// would write, in one `raw` (one token at a time unless `writer.placesRuns`).
    mutating func writeToken(
        _ b: ArraySlice<UInt8>, complete: Bool, theme: MarkdownTheme, into writer: inout RowWriter
    ) -> Int? {
        var i = b.startIndex
        var run = i..<i
        var runStyle = TextStyle.plain
        var runWidth = 0
        while i < b.endIndex, writer.placesRuns || i == b.startIndex,
            let (length, token) = lexer.next(b[i...], complete: complete), length > 0
        {
            let bytes = b[i..<min(i + length, b.endIndex)]
            let style = theme.token(token)
            if !run.isEmpty && (style != runStyle || bytes.contains(0x09)) {
                writer.raw(b[run], runStyle, width: runWidth)
                run = i..<i
            }
            i = bytes.endIndex
            if bytes.contains(0x09) {
                writeExpanded(bytes, style, into: &writer)
                run = i..<i
                continue
            }
            let width = CellWidth.of(bytes)
            column += width
            if run.isEmpty {
                runStyle = style
                runWidth = 0
            }
            run = run.lowerBound..<i
            runWidth += width
        }
        if !run.isEmpty { writer.raw(b[run], runStyle, width: runWidth) }
        return i == b.startIndex ? nil : i - b.startIndex
    }

    /// Writes a token with tabs in it, each to the next multiple of 4 columns, counted from the
    /// code's own first column.
    private mutating func writeExpanded(_ bytes: ArraySlice<UInt8>, _ style: TextStyle, into writer: inout RowWriter) {
        var expanded: [UInt8] = []
        for byte in bytes {
            if byte == 0x09 {
                let spaces = 4 - column % 4
                expanded += Array(repeating: 0x20, count: spaces)
                column += spaces
            } else {
                expanded.append(byte)
                if byte & 0xC0 != 0x80 { column += 1 }
            }
        }
        writer.raw(expanded[...], style, width: CellWidth.of(expanded[...]))
    }
}
