/// A Markdown table being received: its rows are held until it ends and then laid out whole
/// (`TableLayout`); meanwhile a live row shows what arrives.
struct PendingTable {
    let quoteDepth: Int
    /// What its rows start with (quote bars).
    let prefix: RowPrefix
    private var rows: [[UInt8]]
    /// Known once the delimiter row (`|---|:-:|`) has come; until then it may not be a table.
    private var alignments: [TableLayout.Alignment]?

    /// A table whose first row is `row`, inside `quoteDepth` quotes.
    init(firstRow row: [UInt8], quoteDepth: Int, prefix: RowPrefix) {
        self.quoteDepth = quoteDepth
        self.prefix = prefix
        rows = [row]
    }

    /// Takes the next row; false when it shows this is not a table after all (the second row
    /// is not a delimiter row), and the row is not taken.
    mutating func add(_ row: [UInt8]) -> Bool {
        guard alignments != nil else {
            guard let alignments = TableLayout.delimiterRow(row) else { return false }
            self.alignments = alignments
            return true
        }
        rows.append(row)
        return true
    }

    /// Writes the table, or its first line as text if it never was one; `cells` lays out its
    /// cells.
    func render(theme: MarkdownTheme, into writer: inout RowWriter, cells: inout RowWriter) {
        guard let alignments else {
            writer.startRow(prefix)
            writer.hanging = prefix
            var text = InlineRenderer(theme: theme)
            text.render(rows[0][...], base: .plain, link: nil, into: &writer)
            writer.endLine()
            return
        }
        TableLayout(theme: theme, alignments: alignments, prefix: prefix)
            .render(rows: rows, into: &writer, cells: &cells)
    }

    /// The live row while the table arrives: `received`, the row being received, or else the
    /// last one, dimmed, within 60 columns, so that only a terminal narrowed below that while it
    /// shows could rewrap it (and keep a piece of it when it is taken back).
    func showLive(_ received: ArraySlice<UInt8>, theme: MarkdownTheme, into writer: inout RowWriter) {
        let row = received.isEmpty ? rows.last?[...] ?? [] : received
        var segments: [(bytes: ArraySlice<UInt8>, style: TextStyle)] = prefix.segments.map {
            ($0.bytes[...], $0.style)
        }
        segments.append((row, theme.preview))
        writer.drawPreview(segments, cells: 60)
    }
}
