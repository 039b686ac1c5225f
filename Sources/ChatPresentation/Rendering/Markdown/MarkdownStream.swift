/// Renders Markdown for a terminal as it streams in, append-only: what is written is never
/// taken back, except a preview on the current row (`showHeld`, and a table's live row). Each
/// piece is rendered as far as it decides anything; only a fragment whose look depends on what
/// follows is held (the start of a line until its kind is known, a `*` or backtick run, a link
/// until its `)`, a word until it ends, a table until it ends). The output for a text does not
/// depend on how it was cut into pieces.
///
/// Blocks: ATX headings, fenced code (highlighted, with its language named, never re-wrapped),
/// bulleted, numbered and task lists (nested by indentation), block quotes, rules, tables (laid
/// out when complete) and paragraphs, whose line breaks are kept. Text is sanitized first
/// (`ControlSanitizer`), so nothing in it reaches the terminal as a command.
struct MarkdownStream {
    private enum Phase { case lineStart, inline, code }

    private struct ListItem {
        /// The indentation of its marker in the source.
        var sourceIndent: Int
        /// Where its text starts when rendered.
        var contentColumn: Int
    }

    private struct Fence {
        var marker: UInt8
        var count: Int
        var indent: Int
        var quoteDepth: Int
        var prefix: RowWriter.Prefix
        var lexer: CodeLexer
        /// Columns of code written on the current line, for tab stops.
        var column = 0
    }

    private struct Table {
        var quoteDepth: Int
        var prefix: RowWriter.Prefix
        var rows: [[UInt8]]
        var alignments: [TableLayout.Alignment]?
    }

    private let theme: MarkdownTheme
    private var writer: RowWriter
    private var inline: InlineRenderer
    private var pending: [UInt8] = []
    private var position = 0
    private var phase = Phase.lineStart
    private var lineBase = TextStyle.plain
    private var list: [ListItem] = []
    private var blankBefore = true
    private var fence: Fence?
    private var table: Table?
    private var newlineMemo: (from: Int, at: Int?) = (0, nil)

    /// Renders with `theme`; `width` gives the terminal's width, read once per row.
    init(theme: MarkdownTheme, width: @escaping @Sendable () -> Int) {
        self.theme = theme
        writer = RowWriter(theme: theme, width: width)
        inline = InlineRenderer(theme: theme)
    }

    /// Whether something that arrived is not on the screen yet, not even tentatively (a table
    /// being received is: its live row).
    var holdsHidden: Bool { table == nil && (position < pending.count || !writer.showsAllHeld) }

    /// Renders `text`; returns the bytes to write.
    mutating func feed(_ text: String) -> [UInt8] {
        receive(text)
        return writer.takeOutput()
    }

    /// Renders `text`; what to write waits for `drainOutput`.
    mutating func receive(_ text: String) {
        writer.erasePreview()
        ControlSanitizer.append(text, to: &pending)
        process(final: false)
        compact()
        writer.showTentative()
        if let table { showTable(table) }
    }

    /// Hands what to write to `body`, and forgets it.
    mutating func drainOutput(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        writer.drainOutput(body)
    }

    /// Shows what is held on the current row as a preview, for when nothing more has arrived for
    /// a while; the next piece replaces it. Returns the bytes to write.
    mutating func showHeld() -> [UInt8] {
        showHeldAfterwards()
        return writer.takeOutput()
    }

    /// `showHeld`, its bytes left for `drainOutput`.
    mutating func showHeldAfterwards() {
        guard table == nil else { return }
        let rest = pending[position...]
        let line = rest.prefix { $0 != 0x0A }
        writer.drawPreview(line.isEmpty ? [] : [(line, theme.preview)])
    }

    /// The answer has ended: renders what is held, closes what is open and ends the last line.
    mutating func finish() -> [UInt8] {
        writer.erasePreview()
        process(final: true)
        switch phase {
        case .inline:
            endInlineLine()
        case .code:
            writer.endLine()
            phase = .lineStart
        case .lineStart:
            break
        }
        endTable()
        if let fence {
            closeFence(fence)
            self.fence = nil
        }
        if writer.inRow { writer.endLine() }
        pending.removeAll()
        position = 0
        return writer.takeOutput()
    }

    // MARK: The loop

    private mutating func process(final: Bool) {
        while position < pending.count {
            let progressed: Bool
            switch phase {
            case .lineStart: progressed = lineStart(final: final)
            case .inline: progressed = inlineStep(final: final)
            case .code: progressed = codeStep(final: final)
            }
            if !progressed { return }
        }
    }

    private mutating func compact() {
        if position == pending.count {
            pending.removeAll(keepingCapacity: true)
            newlineMemo = (0, nil)
            position = 0
        } else if position > 4096 {
            pending.removeFirst(position)
            newlineMemo = (0, nil)
            position = 0
        }
    }

    /// The index of the next newline at or after `position`, if it has arrived.
    private mutating func newline() -> Int? {
        if let at = newlineMemo.at, at >= position { return at }
        let from = max(newlineMemo.from, position)
        let found = pending[from...].firstIndex(of: 0x0A)
        newlineMemo = (found == nil ? pending.count : from, found)
        return found
    }

    // MARK: Lines

    private mutating func lineStart(final: Bool) -> Bool {
        if fence != nil { return codeLineStart(final: final) }
        guard let line = LineStart.read(pending[position...], final: final) else { return false }
        if let table {
            var continues = false
            if case .tableRow = line.kind { continues = line.quoteDepth == table.quoteDepth }
            if !continues { endTable() }
        }
        position += line.length
        let quote = quotePrefix(line.quoteDepth)
        defer { blankBefore = line.kind == .blank }
        switch line.kind {
        case .blank:
            if line.quoteDepth > 0 {
                writer.startRow(quote)
            }
            writer.endLine()
        case .heading(let level):
            list.removeAll()
            begin(quote, hanging: quote, base: theme.heading(level))
        case .fence(let marker, let count, let info):
            let indentation = listIndent(for: line.indent, continuing: true)
            let prefix = quote.appendingSpaces(indentation)
            let name = LineStart.language(ofFenceInfo: info)
            writer.startRow(prefix)
            writer.raw(Array("───".utf8)[...], theme.codeFrame, width: 3)
            if !name.isEmpty {
                writer.raw(Array(" \(name)".utf8)[...], theme.codeLanguage, width: 1 + CellWidth.of(name))
            }
            writer.endLine()
            fence = Fence(
                marker: marker, count: count, indent: line.indent, quoteDepth: line.quoteDepth, prefix: prefix,
                lexer: CodeLexer(language: CodeLanguages.named(name)))
        case .rule(let heavy):
            let indentation = listIndent(for: line.indent, continuing: false)
            let prefix = quote.appendingSpaces(indentation)
            writer.startRow(prefix)
            let cells = max(writer.limit - writer.col, 3)
            let bar = heavy ? "═" : "─"
            writer.raw(Array(String(repeating: bar, count: cells).utf8)[...], theme.rule, width: cells)
            writer.endLine()
        case .bullet(let task), .ordered(_, let task):
            let (markerColumn, marker) = listItem(line)
            let column = list.last?.contentColumn ?? 0
            var first = quote.appendingSpaces(markerColumn)
            first = first.appending(marker, theme.bullet).appending(" ")
            if let task {
                first = first.appending(task ? "[x]" : "[ ]", task ? theme.token(.inserted) : theme.bullet).appending(
                    " ")
            }
            begin(
                first, hanging: quote.appendingSpaces(column),
                base: quoteBase(line))
        case .tableRow(let bytes):
            tableRow(bytes, line: line, quote: quote)
        case .paragraph:
            let column = listIndent(for: line.indent, continuing: !blankBefore)
            let prefix = quote.appendingSpaces(column)
            begin(prefix, hanging: prefix, base: quoteBase(line))
        }
        return true
    }

    private func quoteBase(_ line: LineStart) -> TextStyle {
        line.quoteDepth > 0 ? theme.quoteText : .plain
    }

    private func quotePrefix(_ depth: Int) -> RowWriter.Prefix {
        var prefix = RowWriter.Prefix.none
        for _ in 0..<depth { prefix = prefix.appending("│ ", theme.quoteBar) }
        return prefix
    }

    private mutating func begin(_ first: RowWriter.Prefix, hanging: RowWriter.Prefix, base: TextStyle) {
        writer.startRow(first)
        writer.hanging = hanging
        lineBase = base
        inline = InlineRenderer(theme: theme)
        phase = .inline
    }

    /// Where text indented by `indent` inside the current list starts, or 0 (and the list ends)
    /// when it is not inside it.
    private mutating func listIndent(for indent: Int, continuing: Bool) -> Int {
        guard !list.isEmpty else { return 0 }
        if indent == 0 && !continuing {
            list.removeAll()
            return 0
        }
        if let item = list.last(where: { $0.sourceIndent < indent }) { return item.contentColumn }
        return continuing ? list.last?.contentColumn ?? 0 : 0
    }

    /// Puts a list item on the stack; returns the column of its marker and the marker to draw.
    private mutating func listItem(_ line: LineStart) -> (Int, String) {
        while let last = list.last, line.indent <= last.sourceIndent { list.removeLast() }
        let parentColumn = list.last?.contentColumn ?? 0
        let marker: String
        switch line.kind {
        case .ordered(let number, _): marker = number
        default: marker = ["•", "◦", "▪"][list.count % 3]
        }
        list.append(ListItem(sourceIndent: line.indent, contentColumn: parentColumn + CellWidth.of(marker) + 1))
        return (parentColumn, marker)
    }

    // MARK: Text

    private mutating func inlineStep(final: Bool) -> Bool {
        let newline = newline()
        let end = newline ?? pending.count
        if position == end {
            guard newline != nil else { return false }
            position += 1
            endInlineLine()
            return true
        }
        guard
            let taken = inline.token(
                pending[position..<end], complete: newline != nil || final, base: lineBase, into: &writer)
        else { return false }
        position += max(taken, 1)
        return true
    }

    private mutating func endInlineLine() {
        writer.endLine()
        phase = .lineStart
    }

    // MARK: Code

    private mutating func codeLineStart(final: Bool) -> Bool {
        guard let (quoteDepth, indent, marker, count) = fence.map({ ($0.quoteDepth, $0.indent, $0.marker, $0.count) })
        else { return true }
        let b = pending[position...]
        var i = b.startIndex
        let end = b.endIndex
        var quotes = 0
        while quotes < quoteDepth {
            var j = i
            while j < end && b[j] == 0x20 && j - i < 3 { j += 1 }
            guard j < end else { if final { break } else { return false } }
            guard b[j] == UInt8(ascii: ">") else { break }
            i = j + 1
            if i < end && b[i] == 0x20 { i += 1 }
            quotes += 1
        }
        let contentStart = i
        var spaces = 0
        while i < end && b[i] == 0x20 { spaces += 1; i += 1 }
        if i == end && !final { return false }
        if spaces <= indent + 3 && i < end && b[i] == marker {
            var j = i
            while j < end && b[j] == marker { j += 1 }
            let run = j - i
            while j < end && (b[j] == 0x20 || b[j] == 0x09) { j += 1 }
            if j == end && !final { return false }
            if run >= count && (j == end || b[j] == 0x0A) {
                position = j == end ? end : j + 1
                if let fence { closeFence(fence) }
                self.fence = nil
                blankBefore = false
                return true
            }
        }
        position = contentStart + min(spaces, indent)
        let prefix = fence?.prefix ?? .none
        writer.startRow(prefix)
        writer.hanging = prefix
        fence?.column = 0
        phase = .code
        return true
    }

    private mutating func closeFence(_ fence: Fence) {
        writer.startRow(fence.prefix)
        writer.raw(Array("───".utf8)[...], theme.codeFrame, width: 3)
        writer.endLine()
    }

    private mutating func codeStep(final: Bool) -> Bool {
        guard fence != nil else {
            phase = .lineStart
            return true
        }
        let newline = newline()
        let end = newline ?? pending.count
        if position == end {
            guard newline != nil else { return false }
            position += 1
            writer.endLine()
            fence?.lexer.endLine()
            phase = .lineStart
            return true
        }
        // The fence is changed in place: a copy of it per token would cost more than the token.
        guard let (length, token) = fence?.lexer.next(pending[position..<end], complete: newline != nil || final)
        else { return false }
        let bytes = pending[position..<(position + length)]
        let style = theme.token(token)
        var column = fence?.column ?? 0
        if bytes.contains(0x09) {
            // Tabs to the next multiple of 4, counted from the code's own first column.
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
        } else {
            let width = CellWidth.of(bytes)
            column += width
            writer.raw(bytes, style, width: width)
        }
        fence?.column = column
        position += length
        return true
    }

    // MARK: Tables

    private mutating func tableRow(_ bytes: [UInt8], line: LineStart, quote: RowWriter.Prefix) {
        guard var current = table else {
            list.removeAll()
            table = Table(quoteDepth: line.quoteDepth, prefix: quote, rows: [bytes])
            return
        }
        if current.alignments == nil {
            if let alignments = TableLayout.delimiterRow(bytes) {
                current.alignments = alignments
                table = current
                return
            }
            // Not a table after all: its first line is text, and this line may start one.
            endTable()
            table = Table(quoteDepth: line.quoteDepth, prefix: quote, rows: [bytes])
            return
        }
        current.rows.append(bytes)
        table = current
    }

    /// Renders the table being collected, or its first line as text if it never was one.
    private mutating func endTable() {
        guard let current = table else { return }
        table = nil
        writer.erasePreview()
        guard let alignments = current.alignments else {
            writer.startRow(current.prefix)
            writer.hanging = current.prefix
            var text = InlineRenderer(theme: theme)
            text.render(current.rows[0][...], base: .plain, link: nil, into: &writer)
            writer.endLine()
            return
        }
        TableLayout(theme: theme, alignments: alignments, prefix: current.prefix)
            .render(header: current.rows[0], rows: Array(current.rows.dropFirst()), into: &writer)
    }

    /// The live row while a table arrives: the row being received (or the last one), dimmed,
    /// within 60 columns, so that only a terminal narrowed below that while it shows could
    /// rewrap it (and keep a piece of it when it is taken back).
    private mutating func showTable(_ table: Table) {
        let rest = pending[position...].prefix { $0 != 0x0A }
        let row = rest.isEmpty ? table.rows.last?[...] ?? [] : rest
        var segments: [(bytes: ArraySlice<UInt8>, style: TextStyle)] = table.prefix.segments.map {
            ($0.bytes[...], $0.style)
        }
        segments.append((row, theme.preview))
        writer.drawPreview(segments, cells: 60)
    }
}
