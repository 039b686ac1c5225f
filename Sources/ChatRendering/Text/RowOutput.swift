/// The bytes a `RowWriter` writes, and what they leave open on the terminal: the style and the
/// hyperlink, the current row's bytes (to write the row again) and the text shown on it
/// tentatively, which can be taken back. It decides nothing about where text goes.
struct RowOutput {
    let theme: MarkdownTheme
    /// What to write, not yet taken.
    private var out: [UInt8] = []
    /// What the current row holds so far (from its first byte), to redraw it: these bytes, then
    /// `out` from `rowPending` on (the row's bytes written since, copied here only when
    /// something else is written after them or `out` is taken, not byte run by byte run).
    private var row: [UInt8] = []
    private var rowPending = 0
    /// The style and hyperlink the terminal has open.
    private var style = TextStyle.plain
    private var link: String?
    /// What is shown tentatively on the row after its committed bytes, and the style and
    /// hyperlink that were open before it.
    private var tentative: [UInt8] = []
    private var committedStyle = TextStyle.plain
    private var committedLink: String?
    private var sgr: SGRSequences

    init(theme: MarkdownTheme) {
        self.theme = theme
        sgr = SGRSequences(theme: theme)
    }

    /// Whether text is shown tentatively.
    var holdsTentative: Bool { !tentative.isEmpty }

    /// Whether the tentative text is ASCII, whose cells every terminal counts alike.
    var tentativeIsASCII: Bool { tentative.allSatisfy { $0 < 0x80 } }

    /// Returns what was written since the last call, and forgets it.
    mutating func take() -> [UInt8] {
        keepRow()
        defer {
            out.removeAll(keepingCapacity: true)
            rowPending = 0
        }
        return out
    }

    /// Hands what was written since the last call to `body`, and forgets it (no copy).
    mutating func drain(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard !out.isEmpty else { return }
        keepRow()
        out.withUnsafeBufferPointer(body)
        out.removeAll(keepingCapacity: true)
        rowPending = 0
    }

    /// Starts again with nothing written and nothing open, keeping the SGR sequences made.
    mutating func reset() {
        // A table's cell writer, between cells: usually all empty already.
        if !out.isEmpty { out.removeAll(keepingCapacity: true) }
        if !row.isEmpty { row.removeAll(keepingCapacity: true) }
        rowPending = 0
        style = .plain
        link = nil
        if !tentative.isEmpty { tentative.removeAll(keepingCapacity: true) }
    }

    /// Writes `bytes` in `style`, inside the hyperlink `link` (when the theme writes hyperlinks),
    /// opening and closing what that takes; `tentative`: to be taken back or committed later.
    mutating func put(_ bytes: ArraySlice<UInt8>, _ style: TextStyle, link: String?, tentative: Bool = false) {
        if tentative && self.tentative.isEmpty {
            committedStyle = self.style
            committedLink = self.link
        }
        if theme.hyperlinks && link != self.link {
            if self.link != nil { write(theme.closeLink, tentative: tentative) }
            if let link { write(theme.openLink(link), tentative: tentative) }
            self.link = link
        }
        if style != self.style {
            write(sgr.change(to: style, from: self.style), tentative: tentative)
            self.style = style
        }
        write(bytes, tentative: tentative)
    }

    /// Writes `count` spaces in `style`, inside the hyperlink `link`, as `put` would write them
    /// (a few spaces, as between words, a byte at a time: cheaper than copying a slice).
    mutating func putSpaces(_ count: Int, _ style: TextStyle, link: String?) {
        guard count <= 4, tentative.isEmpty else {
            put(Array(repeating: 0x20, count: count)[...], style, link: link)
            return
        }
        // Usually the style and hyperlink are those open already: nothing to change, no empty
        // run of bytes to write.
        if style != self.style || (theme.hyperlinks && link != self.link) { put([], style, link: link) }
        for _ in 0..<count { out.append(0x20) }
    }

    /// Writes bytes that carry their own styles and end with a reset (a laid-out table cell),
    /// after closing what is open.
    mutating func putStyled(_ bytes: ArraySlice<UInt8>) {
        if link != nil {
            write(theme.closeLink)
            link = nil
        }
        if style != .plain {
            write(theme.reset)
            style = .plain
        }
        write(bytes)
    }

    /// Ends the row: closes the hyperlink and the style, then a newline. Tentative text must have
    /// been taken back first.
    mutating func endRow() {
        if link != nil {
            write(theme.closeLink)
            link = nil
        }
        if style != .plain {
            if theme.escapes { write(SGRSequences.plain) }
            style = .plain
        }
        out.append(0x0A)
        // Usually empty: the row's bytes are still only in `out`.
        if !row.isEmpty { row.removeAll(keepingCapacity: true) }
        rowPending = out.count
    }

    /// The tentative text is where it belongs: it becomes part of the row.
    mutating func commitTentative() {
        keepRow()
        row += tentative
        tentative.removeAll(keepingCapacity: true)
    }

    /// Takes the tentative text off the row: with `stepBack`, by stepping the cursor back over
    /// its `cells` and erasing to the row's end; otherwise by writing the row again from its start.
    mutating func takeBackTentative(cells: Int, stepBack: Bool) {
        keepRow()
        defer { rowPending = out.count }
        if stepBack {
            out += Array("\u{1B}[\(cells)D\u{1B}[K".utf8)
            out += committedStyle == .plain ? theme.reset : sgr.full(committedStyle)
            if let committedLink { out += theme.openLink(committedLink) }
        } else {
            out += Self.rowStart
            out += row
        }
        style = committedStyle
        link = committedLink
        tentative.removeAll(keepingCapacity: true)
    }

    private static let rowStart = Array("\r\u{1B}[0m\u{1B}[K".utf8)

    private mutating func write(_ bytes: ArraySlice<UInt8>, tentative: Bool = false) {
        if tentative {
            keepRow()
            out.append(contentsOf: bytes)
            rowPending = out.count
            self.tentative.append(contentsOf: bytes)
        } else if !self.tentative.isEmpty {
            // After tentative text (not where a row's bytes usually go): kept at once.
            out.append(contentsOf: bytes)
            row.append(contentsOf: bytes)
            rowPending = out.count
        } else {
            out.append(contentsOf: bytes)
        }
    }

    /// Copies the row's bytes written to `out` since `rowPending` into `row`.
    private mutating func keepRow() {
        if rowPending < out.count { row.append(contentsOf: out[rowPending...]) }
        rowPending = out.count
    }

    private mutating func write(_ bytes: [UInt8], tentative: Bool = false) {
        write(bytes[...], tentative: tentative)
    }
}
