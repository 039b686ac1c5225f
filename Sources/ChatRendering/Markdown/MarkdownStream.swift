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
/// (`ControlSanitizer`), so nothing in it reaches the terminal as a command. Lines are read by
/// `LineStart`, their text by `InlineRenderer`; a code block is a `CodeFence`, a table a
/// `PendingTable`, and the lists a line may belong to a `ListStack`.
package struct MarkdownStream {
    private enum Phase { case lineStart, inline, code }

    private let theme: MarkdownTheme
    private var writer: RowWriter
    private var inline: InlineRenderer
    private var pending: [UInt8] = []
    private var position = 0
    private var phase = Phase.lineStart
    private var lineBase = TextStyle.plain
    private var list = ListStack()
    private var blankBefore = true
    private var fence: CodeFence?
    private var table: PendingTable?
    /// Lays out the cells of every table (its SGR sequences made once).
    private var tableCells: RowWriter
    private var newlineMemo: (from: Int, at: Int?) = (0, nil)

    /// Renders with `theme`; `width` gives the terminal's width, read once a piece (by the first
    /// row that needs it). `runsAtOnce` false: every word and code token placed one at a time (tests
    /// compare).
    package init(theme: MarkdownTheme, width: @escaping @Sendable () -> Int, runsAtOnce: Bool = true) {
        self.theme = theme
        writer = RowWriter(theme: theme, width: width)
        tableCells = RowWriter(theme: theme, width: { 80 })
        writer.placesRuns = runsAtOnce
        tableCells.placesRuns = runsAtOnce
        inline = InlineRenderer(theme: theme)
    }

    /// Whether something that arrived is not on the screen yet, not even tentatively (a table
    /// being received is: its live row).
    package var holdsHidden: Bool { table == nil && (position < pending.count || !writer.showsAllHeld) }

    /// Renders `text`; returns the bytes to write.
    mutating func feed(_ text: String) -> [UInt8] {
        receive(text)
        return writer.takeOutput()
    }

    /// Renders `text`; what to write waits for `drainOutput`.
    package mutating func receive(_ text: String) {
        writer.readWidthAgain()
        writer.erasePreview()
        ControlSanitizer.append(text, to: &pending)
        process(final: false)
        compact()
        writer.showTentative()
        if let table { table.showLive(pending[position...].prefix { $0 != 0x0A }, theme: theme, into: &writer) }
    }

    /// Hands what to write to `body`, and forgets it.
    package mutating func drainOutput(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        writer.drainOutput(body)
    }

    /// Shows what is held on the current row as a preview, for when nothing more has arrived for
    /// a while; the next piece replaces it. Returns the bytes to write.
    package mutating func showHeld() -> [UInt8] {
        showHeldAfterwards()
        return writer.takeOutput()
    }

    /// `showHeld`, its bytes left for `drainOutput`.
    package mutating func showHeldAfterwards() {
        guard table == nil else { return }
        writer.readWidthAgain()
        let rest = pending[position...]
        let line = rest.prefix { $0 != 0x0A }
        writer.drawPreview(line.isEmpty ? [] : [(line, theme.preview)])
    }

    /// The answer has ended: renders what is held, closes what is open and ends the last line.
    package mutating func finish() -> [UInt8] {
        writer.readWidthAgain()
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
            fence.writeBottom(theme: theme, into: &writer)
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
            let prefix = quote.appendingSpaces(list.indent(for: line.indent, continuing: true))
            let name = LineStart.language(ofFenceInfo: info)
            let opened = CodeFence(
                marker: marker, count: count, indent: line.indent, quoteDepth: line.quoteDepth, prefix: prefix,
                language: name)
            opened.writeTop(language: name, theme: theme, into: &writer)
            fence = opened
        case .rule(let heavy):
            let indentation = list.indent(for: line.indent, continuing: false)
            let prefix = quote.appendingSpaces(indentation)
            writer.startRow(prefix)
            let cells = max(writer.limit - writer.col, 3)
            let bar = heavy ? "═" : "─"
            writer.raw(Array(String(repeating: bar, count: cells).utf8)[...], theme.rule, width: cells)
            writer.endLine()
        case .bullet(let task), .ordered(_, let task):
            let (markerColumn, marker, markerWidth) = list.push(line)
            // Built in place, a segment at a time, from bytes made once.
            var first = quote
            first.appendSpaces(markerColumn)
            first.append(marker, width: markerWidth, theme.bullet)
            first.append(Self.space, width: 1)
            if let task {
                first.append(
                    task ? Self.checked : Self.unchecked, width: 3, task ? theme.token(.inserted) : theme.bullet)
                first.append(Self.space, width: 1)
            }
            begin(first, hanging: quote.appendingSpaces(list.contentColumn), base: quoteBase(line))
        case .tableRow(let bytes):
            tableRow(bytes, line: line, quote: quote)
        case .paragraph:
            let column = list.indent(for: line.indent, continuing: !blankBefore)
            let prefix = quote.appendingSpaces(column)
            begin(prefix, hanging: prefix, base: quoteBase(line))
        }
        return true
    }

    private static let space: [UInt8] = [0x20]
    private static let checked = Array("[x]".utf8)
    private static let unchecked = Array("[ ]".utf8)

    private func quoteBase(_ line: LineStart) -> TextStyle {
        line.quoteDepth > 0 ? theme.quoteText : .plain
    }

    private func quotePrefix(_ depth: Int) -> RowPrefix {
        guard depth > 0 else { return .none }
        var prefix = RowPrefix.none
        for _ in 0..<depth { prefix = prefix.appending("│ ", theme.quoteBar) }
        return prefix
    }

    private mutating func begin(_ first: RowPrefix, hanging: RowPrefix, base: TextStyle) {
        writer.startRow(first)
        writer.hanging = hanging
        lineBase = base
        inline = InlineRenderer(theme: theme)
        phase = .inline
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
        guard let line = fence?.line(at: pending[position...], final: final) else { return true }
        switch line {
        case .more:
            return false
        case .closing(let next):
            position = next
            fence?.writeBottom(theme: theme, into: &writer)
            fence = nil
            blankBefore = false
        case .code(let start):
            position = start
            let prefix = fence?.prefix ?? .none
            writer.startRow(prefix)
            writer.hanging = prefix
            fence?.startLine()
            phase = .code
        }
        return true
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
            fence?.endLine()
            phase = .lineStart
            return true
        }
        // The fence is changed in place: a copy of it per token would cost more than the token.
        guard
            let length = fence?.writeToken(
                pending[position..<end], complete: newline != nil || final, theme: theme, into: &writer)
        else { return false }
        position += length
        return true
    }

    // MARK: Tables

    private mutating func tableRow(_ bytes: [UInt8], line: LineStart, quote: RowPrefix) {
        guard table != nil else {
            list.removeAll()
            table = PendingTable(firstRow: bytes, quoteDepth: line.quoteDepth, prefix: quote)
            return
        }
        if table?.add(bytes) == false {
            // Not a table after all: its first line is text, and this line may start one.
            endTable()
            table = PendingTable(firstRow: bytes, quoteDepth: line.quoteDepth, prefix: quote)
        }
    }

    /// Renders the table being collected, or its first line as text if it never was one.
    private mutating func endTable() {
        guard let current = table else { return }
        table = nil
        writer.erasePreview()
        current.render(theme: theme, into: &writer, cells: &tableCells)
    }
}
