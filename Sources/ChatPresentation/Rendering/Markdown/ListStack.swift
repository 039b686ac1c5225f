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
    /// the column of its marker and the marker to draw.
    mutating func push(_ line: LineStart) -> (column: Int, marker: String) {
        while let last = items.last, line.indent <= last.sourceIndent { items.removeLast() }
        let parentColumn = contentColumn
        let marker: String
        switch line.kind {
        case .ordered(let number, _): marker = number
        default: marker = ["•", "◦", "▪"][items.count % 3]
        }
        items.append(Item(sourceIndent: line.indent, contentColumn: parentColumn + CellWidth.of(marker) + 1))
        return (parentColumn, marker)
    }
}
