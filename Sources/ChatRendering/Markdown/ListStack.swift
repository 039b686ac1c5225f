/// The list items a Markdown line may belong to, innermost last: where each one's marker was in
/// the source and where its text starts when rendered.
struct ListStack {
    private struct Item {
        /// The indentation of its marker in the source.
        var sourceIndent: Int
        /// Where its text starts when rendered.
        var contentColumn: Int
    }

    private var items: [Item] = []

    /// Where the innermost item's text starts when rendered; 0 outside any list.
    var contentColumn: Int { items.last?.contentColumn ?? 0 }

    /// The list has ended.
    mutating func removeAll() {
        items.removeAll()
    }

    /// Where text indented by `indent` inside the list starts, or 0 (and the list ends) when it
    /// is not inside it.
    mutating func indent(for indent: Int, continuing: Bool) -> Int {
        guard !items.isEmpty else { return 0 }
        if indent == 0 && !continuing {
            items.removeAll()
            return 0
        }
        if let item = items.last(where: { $0.sourceIndent < indent }) { return item.contentColumn }
        return continuing ? contentColumn : 0
    }

    /// Puts the list item `line` starts on the stack, ending the items it is not inside; returns
    /// the column of its marker, the marker to draw (its UTF-8) and its width in cells.
    mutating func push(_ line: LineStart) -> (column: Int, marker: [UInt8], width: Int) {
        while let last = items.last, line.indent <= last.sourceIndent { items.removeLast() }
        let parentColumn = contentColumn
        let marker: [UInt8]
        let width: Int
        switch line.kind {
        case .ordered(let number, _):
            marker = Array(number.utf8)
            width = CellWidth.of(marker[...])
        default:
            (marker, width) = Self.bullets[items.count % 3]
        }
        items.append(Item(sourceIndent: line.indent, contentColumn: parentColumn + width + 1))
        return (parentColumn, marker, width)
    }

    /// The bullets of the first three levels (repeating below) and their cells, made once.
    private static let bullets = ["•", "◦", "▪"].map { (Array($0.utf8), CellWidth.of($0)) }
}
