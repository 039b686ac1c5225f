/// Lays out a complete Markdown table: cells rendered inline (emphasis, code, links), columns as
/// wide as their widest cell, narrowed fairly when the terminal is too narrow (the widest first;
/// their cells then wrap within the column), aligned as the delimiter row says, the header bold
/// and ruled off.
struct TableLayout {
    enum Alignment: Equatable { case left, center, right }

    let theme: MarkdownTheme
    let alignments: [Alignment]
    let prefix: RowPrefix

    /// The alignments a delimiter row (`|---|:--:|`) gives, or nil if `bytes` is not one.
    static func delimiterRow(_ bytes: [UInt8]) -> [Alignment]? {
        let cells = cells(bytes[...])
        guard !cells.isEmpty else { return nil }
        var alignments: [Alignment] = []
        for cell in cells {
            let text = String(decoding: cell, as: UTF8.self)
            let dashes = text.filter { $0 == "-" }.count
            guard dashes >= 1, text.allSatisfy({ $0 == "-" || $0 == ":" }) else { return nil }
            let left = text.hasPrefix(":")
            let right = text.hasSuffix(":")
            alignments.append(left && right ? .center : right ? .right : .left)
        }
        return alignments
    }

    /// The cells of a row, trimmed: split at `|` not escaped and not inside a code span.
    static func cells(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var row = trimmed(bytes)
        if row.first == UInt8(ascii: "|") { row = row.dropFirst() }
        if row.last == UInt8(ascii: "|") && (row.count < 2 || row[row.endIndex - 2] != UInt8(ascii: "\\")) {
            row = row.dropLast()
        }
        var cells: [ArraySlice<UInt8>] = []
        var start = row.startIndex
        var index = row.startIndex
        var inCode = false
        while index < row.endIndex {
            let byte = row[index]
            if byte == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if byte == UInt8(ascii: "`") { inCode.toggle() }
            if byte == UInt8(ascii: "|") && !inCode {
                cells.append(trimmed(row[start..<index]))
                start = index + 1
            }
            index += 1
        }
        cells.append(trimmed(row[start..<min(index, row.endIndex)]))
        return cells
    }

    private static func trimmed(_ cell: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var cell = cell
        while let first = cell.first, first == 0x20 || first == 0x09 { cell = cell.dropFirst() }
        while let last = cell.last, last == 0x20 || last == 0x09 { cell = cell.dropLast() }
        return cell
    }

    /// Writes the table, a row of text at a time, with the terminal's width as it is now.
    func render(header: [UInt8], rows: [[UInt8]], into writer: inout RowWriter) {
        let columns = alignments.count
        let table = ([header] + rows).map { line -> [ArraySlice<UInt8>] in
            var cells = Self.cells(line[...])
            if cells.count < columns { cells += Array(repeating: [], count: columns - cells.count) }
            return Array(cells.prefix(columns))
        }
        var cells = RowWriter(theme: theme, width: { 80 })
        cells.recordsRows = true
        cells.live = false
        // Each cell laid out on one row first: its natural width, and its layout whenever its
        // column is at least that wide (only cells of narrowed columns are laid out again).
        var natural = Array(repeating: 1, count: columns)
        let unwrapped = table.enumerated().map { index, row in
            row.enumerated().map { column, cell in
                let rows = lay(cell, header: index == 0, width: 1_000_000, &cells)
                natural[column] = max(natural[column], rows[0].width)
                return rows
            }
        }
        writer.startRow(prefix)
        let available = writer.limit - writer.col - 3 * (columns - 1)
        let widths = Self.fit(natural, into: available)

        let separator = Array(" │ ".utf8)
        for (index, row) in table.enumerated() {
            let laid = row.enumerated().map { column, cell in
                unwrapped[index][column][0].width <= widths[column]
                    ? unwrapped[index][column] : lay(cell, header: index == 0, width: widths[column], &cells)
            }
            let height = laid.reduce(1) { max($0, $1.count) }
            for line in 0..<height {
                if !writer.inRow { writer.startRow(prefix) }
                for column in 0..<columns {
                    if column > 0 { writer.raw(separator[...], theme.tableBorder, width: 3) }
                    let piece = line < laid[column].count ? laid[column][line] : (bytes: [], width: 0)
                    let gap = max(widths[column] - piece.width, 0)
                    let (before, after): (Int, Int)
                    switch alignments[column] {
                    case .left: (before, after) = (0, gap)
                    case .right: (before, after) = (gap, 0)
                    case .center: (before, after) = (gap / 2, gap - gap / 2)
                    }
                    let last = column == columns - 1
                    if before > 0 { writer.raw(Array(repeating: 0x20, count: before)[...], .plain, width: before) }
                    writer.styled(piece.bytes, width: piece.width)
                    if after > 0 && !last {
                        writer.raw(Array(repeating: 0x20, count: after)[...], .plain, width: after)
                    }
                }
                writer.endLine()
            }
            if index == 0 {
                writer.startRow(prefix)
                var rule: [UInt8] = []
                for (column, width) in widths.enumerated() {
                    if column > 0 { rule += Self.cross }
                    for _ in 0..<width { rule += Self.bar }
                }
                writer.raw(rule[...], theme.tableBorder, width: widths.reduce(0, +) + 3 * (columns - 1))
                writer.endLine()
            }
        }
    }

    private static let bar = Array("─".utf8)
    private static let cross = Array("─┼─".utf8)

    /// Column widths: each column's natural width if all fit; otherwise the narrow columns keep
    /// theirs and the rest share what is left equally.
    static func fit(_ natural: [Int], into available: Int) -> [Int] {
        guard natural.reduce(0, +) > available else { return natural }
        var widths = natural
        var remaining = max(available, natural.count)
        let order = natural.indices.sorted { natural[$0] < natural[$1] }
        for (done, column) in order.enumerated() {
            let share = max(remaining / (natural.count - done), 1)
            widths[column] = min(natural[column], max(share, min(natural[column], 3)))
            remaining -= widths[column]
        }
        return widths
    }

    /// A cell's text rendered into rows at most `width` cells wide, by `writer`.
    private func lay(_ cell: ArraySlice<UInt8>, header: Bool, width: Int, _ writer: inout RowWriter) -> [(
        bytes: [UInt8], width: Int
    )] {
        writer.reset(width: { width + 1 })
        writer.startRow(.none)
        var inline = InlineRenderer(theme: theme)
        inline.render(cell, base: header ? theme.tableHeader : .plain, link: nil, into: &writer)
        writer.endLine()
        let output = writer.takeOutput()
        var rows: [(bytes: [UInt8], width: Int)] = []
        var start = 0
        for (index, byte) in output.enumerated() where byte == 0x0A {
            rows.append((Array(output[start..<index]), writer.rowWidths[rows.count]))
            start = index + 1
        }
        return rows.isEmpty ? [([], 0)] : rows
    }
}
