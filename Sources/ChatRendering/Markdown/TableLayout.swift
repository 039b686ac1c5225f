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
        alignments.reserveCapacity(cells.count)
        for cell in cells {
            // At least one `-`, and nothing but `-` and `:`.
            guard cell.contains(UInt8(ascii: "-")),
                cell.allSatisfy({ $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ":") })
            else { return nil }
            let left = cell.first == UInt8(ascii: ":")
            let right = cell.last == UInt8(ascii: ":")
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
        cells.reserveCapacity(8)
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
        var start = cell.startIndex
        var end = cell.endIndex
        while start < end && (cell[start] == 0x20 || cell[start] == 0x09) { start += 1 }
        while end > start && (cell[end - 1] == 0x20 || cell[end - 1] == 0x09) { end -= 1 }
        return cell[start..<end]
    }

    /// Writes the table (`rows[0]` is its header), a row of text at a time, with the terminal's
    /// width as it is now. `cells` lays out each cell (kept from table to table, so the SGR
    /// sequences it has made are made once).
    func render(rows: [[UInt8]], into writer: inout RowWriter, cells: inout RowWriter) {
        let columns = alignments.count
        var table: [ArraySlice<UInt8>] = []
        table.reserveCapacity(rows.count * columns)
        for line in rows {
            let row = Self.cells(line[...])
            table += row.prefix(columns)
            if row.count < columns { table += repeatElement([], count: columns - row.count) }
        }
        cells.recordsRows = true
        cells.live = false
        // Each cell laid out on one row first: its natural width, and its layout whenever its
        // column is at least that wide (only cells of narrowed columns are laid out again).
        var laid = LaidCells()
        laid.rows.reserveCapacity(table.count + 8)
        laid.bytes.reserveCapacity(rows.reduce(0) { $0 + $1.count } * 2)
        var natural = Array(repeating: 1, count: columns)
        let unwrapped = table.indices.map { index in
            let rows = laid.lay(table[index], header: index < columns, width: LaidCells.unbounded, theme: theme, &cells)
            natural[index % columns] = max(natural[index % columns], laid.rows[rows.lowerBound].width)
            return rows
        }
        writer.startRow(prefix)
        let available = writer.limit - writer.col - 3 * (columns - 1)
        let widths = Self.fit(natural, into: available)

        var row = Array(repeating: 0..<0, count: columns)
        for first in stride(from: 0, to: table.count, by: columns) {
            for column in 0..<columns {
                let index = first + column
                row[column] =
                    laid.rows[unwrapped[index].lowerBound].width <= widths[column]
                    ? unwrapped[index]
                    : laid.lay(table[index], header: first == 0, width: widths[column], theme: theme, &cells)
            }
            let height = row.reduce(1) { max($0, $1.count) }
            for line in 0..<height {
                if !writer.inRow { writer.startRow(prefix) }
                for column in 0..<columns {
                    if column > 0 { writer.raw(Self.separator[...], theme.tableBorder, width: 3) }
                    let piece =
                        line < row[column].count ? laid.rows[row[column].lowerBound + line] : (bytes: 0..<0, width: 0)
                    let gap = max(widths[column] - piece.width, 0)
                    let (before, after): (Int, Int)
                    switch alignments[column] {
                    case .left: (before, after) = (0, gap)
                    case .right: (before, after) = (gap, 0)
                    case .center: (before, after) = (gap / 2, gap - gap / 2)
                    }
                    let last = column == columns - 1
                    if before > 0 { writer.raw(Self.blanks(before), .plain, width: before) }
                    writer.styled(laid.bytes[piece.bytes], width: piece.width)
                    if after > 0 && !last {
                        writer.raw(Self.blanks(after), .plain, width: after)
                    }
                }
                writer.endLine()
            }
            if first == 0 {
                writer.startRow(prefix)
                var rule: [UInt8] = []
                rule.reserveCapacity(3 * (widths.reduce(0, +) + 3 * (columns - 1)))
                for (column, width) in widths.enumerated() {
                    if column > 0 { rule += Self.cross }
                    for _ in 0..<width { rule.append(contentsOf: Self.bar) }
                }
                writer.raw(rule[...], theme.tableBorder, width: widths.reduce(0, +) + 3 * (columns - 1))
                writer.endLine()
            }
        }
    }

    private static let bar = Array("─".utf8)
    private static let cross = Array("─┼─".utf8)
    private static let separator = Array(" │ ".utf8)
    private static let spaceRun = [UInt8](repeating: 0x20, count: 64)

    /// `count` spaces, without making an array each time.
    private static func blanks(_ count: Int) -> ArraySlice<UInt8> {
        count <= spaceRun.count ? spaceRun[0..<count] : Array(repeating: 0x20, count: count)[...]
    }

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

}

/// The rows of a table's cells as laid out, the bytes of all of them in one buffer.
private struct LaidCells {
    /// The width a cell is laid out in to find its natural width.
    static let unbounded = 1_000_000

    var bytes: [UInt8] = []
    var rows: [(bytes: Range<Int>, width: Int)] = []

    /// Lays out a cell's text into rows at most `width` cells wide, by `writer`; returns where
    /// its rows are in `rows` (one at least). A plain cell's natural layout is its bytes
    /// (`isPlain`), taken as they are when `writer.placesRuns`.
    mutating func lay(
        _ cell: ArraySlice<UInt8>, header: Bool, width: Int, theme: MarkdownTheme, _ writer: inout RowWriter
    ) -> Range<Int> {
        if writer.placesRuns && width == Self.unbounded && (!header || theme.tableHeader == .plain)
            && Self.isPlain(cell)
        {
            let from = bytes.count
            bytes.append(contentsOf: cell)
            rows.append((from..<bytes.count, cell.count))
            return rows.count - 1..<rows.count
        }
        // The natural layout's width is a constant: a closure that captures nothing is not
        // allocated for each cell.
        let bound: @Sendable () -> Int
        if width == Self.unbounded { bound = { Self.unbounded + 1 } } else { bound = { width + 1 } }
        writer.reset(width: bound)
        writer.startRow(.none)
        var inline = InlineRenderer(theme: theme)
        inline.render(cell, base: header ? theme.tableHeader : .plain, link: nil, into: &writer)
        writer.endLine()
        let first = rows.count
        let widths = writer.rowWidths
        writer.drainOutput { output in
            var start = 0
            for index in output.indices where output[index] == 0x0A {
                let from = bytes.count
                bytes.append(contentsOf: output[start..<index])
                rows.append((from..<bytes.count, widths[rows.count - first]))
                start = index + 1
            }
        }
        if rows.count == first { rows.append((bytes.count..<bytes.count, 0)) }
        return first..<rows.count
    }

    /// Whether a cell is plain text: printable ASCII (a cell a byte; no tab, which becomes a
    /// space) with nothing `InlineRenderer` reads as markup (`InlineRenderer.stops`, spaces
    /// aside). Laid out in plain style on one unbounded row, such a cell is its own bytes: its
    /// words and the spaces between them as they are (it is trimmed: no space before or after).
    static func isPlain(_ cell: ArraySlice<UInt8>) -> Bool {
        cell.withUnsafeBufferPointer { buffer in
            buffer.allSatisfy { $0 == 0x20 || ((0x21...0x7E).contains($0) && !InlineRenderer.stops($0)) }
        }
    }
}
