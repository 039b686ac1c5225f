/// Lays styled text out in rows for a terminal: words wrap at word boundaries one cell short of
/// the terminal's width (a row never reaches the last column, so no terminal is left in its
/// pending-wrap state), every row ends with a style reset and a newline and the next one reopens
/// what is open, and a word wider than a row is broken between grapheme clusters. The width is
/// read once per row, so a resize changes the rows after it only. Rows already ended are never
/// touched again.
///
/// Whether a word fits its row is known only when it ends. On a terminal the word being received
/// is shown at once all the same, *tentatively*: if it grows past the row's end, the row is
/// written again without it (carriage return, erase, the row's committed bytes) and the word
/// goes on the next row. `drawPreview` adds more tentative text (what the Markdown layer holds);
/// `erasePreview` takes it back. Without escapes (not a terminal) words are held until they end.
struct RowWriter {
    /// What starts a row: indentation, a list marker, quote bars.
    struct Prefix: Sendable {
        var segments: [(bytes: [UInt8], style: TextStyle)] = []
        var width = 0

        static let none = Prefix()

        /// This prefix followed by `count` spaces.
        func appendingSpaces(_ count: Int) -> Prefix {
            appending(Array(repeating: 0x20, count: count), width: count)
        }

        /// This prefix followed by `text` in `style`.
        func appending(_ text: String, _ style: TextStyle = .plain) -> Prefix {
            appending(Array(text.utf8), width: CellWidth.of(text), style)
        }

        /// This prefix followed by `bytes`, `width` cells wide, in `style`.
        func appending(_ bytes: [UInt8], width: Int, _ style: TextStyle = .plain) -> Prefix {
            guard !bytes.isEmpty else { return self }
            var copy = self
            copy.segments.append((bytes, style))
            copy.width += width
            return copy
        }
    }

    private struct Run {
        var end: Int
        var style: TextStyle
        var link: String?
    }

    let theme: MarkdownTheme
    /// The terminal's width in cells, read at the start of each row.
    var width: @Sendable () -> Int
    /// What to write, taken by `takeOutput`.
    private(set) var out: [UInt8] = []
    /// What the current row holds so far (from its first byte), to redraw it.
    private var rowBytes: [UInt8] = []
    /// The cells used on the current row.
    private(set) var col = 0
    /// The last cell a row may use, plus one: the width less one.
    private(set) var limit = 79
    /// Whether the row holds text after its prefix.
    private(set) var rowHasContent = false
    /// Whether a row has been started and not yet ended.
    private(set) var inRow = false
    /// What starts a row that a long line wraps onto.
    var hanging = Prefix.none
    /// The width of each row ended so far, when `recordsRows` (table cells are laid out so).
    private(set) var rowWidths: [Int] = []

    private var termStyle = TextStyle.plain
    private var termLink: String?
    private var word: [UInt8] = []
    private var runs: [Run] = []
    private var wordWidth = 0
    private var counter = WidthCounter()
    private var spaces = 0
    private var spaceStyle = TextStyle.plain
    private var spaceLink: String?

    /// Bytes of `word` shown tentatively, and whether the held spaces before it are shown.
    private var shownBytes = 0
    private var spacesShown = false
    /// What is shown tentatively on the row after its committed bytes, and its cells.
    private var tentativeOut: [UInt8] = []
    private var tentativeCells = 0
    private var committedStyle = TextStyle.plain
    private var committedLink: String?
    private var previewShown = false

    init(theme: MarkdownTheme, width: @escaping @Sendable () -> Int) {
        self.theme = theme
        self.width = width
    }

    /// Whether a word is held.
    var holdsText: Bool { !word.isEmpty }

    /// Whether everything held is on the screen (tentatively).
    var showsAllHeld: Bool { word.isEmpty || shownBytes == word.count }

    /// Returns what was written since the last call, and forgets it.
    mutating func takeOutput() -> [UInt8] {
        defer { out.removeAll(keepingCapacity: true) }
        return out
    }

    /// Starts again with nothing written, keeping what it has learnt (the SGR sequences): one
    /// writer lays out every cell of a table.
    mutating func reset(width: @escaping @Sendable () -> Int) {
        self.width = width
        out.removeAll(keepingCapacity: true)
        rowBytes.removeAll(keepingCapacity: true)
        rowWidths.removeAll(keepingCapacity: true)
        col = 0
        inRow = false
        rowHasContent = false
        hanging = .none
        termStyle = .plain
        termLink = nil
        word.removeAll(keepingCapacity: true)
        runs.removeAll(keepingCapacity: true)
        wordWidth = 0
        spaces = 0
        tentativeOut.removeAll(keepingCapacity: true)
        tentativeCells = 0
        shownBytes = 0
        spacesShown = false
        previewShown = false
    }

    /// Hands what was written since the last call to `body`, and forgets it (no copy).
    mutating func drainOutput(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard !out.isEmpty else { return }
        out.withUnsafeBufferPointer(body)
        out.removeAll(keepingCapacity: true)
    }

    // MARK: Rows

    /// Starts a row with `prefix`, reading the terminal's width.
    mutating func startRow(_ prefix: Prefix) {
        if inRow { endRow() }
        limit = max(width() - 1, prefix.width + 1)
        inRow = true
        for segment in prefix.segments { put(segment.bytes[...], segment.style, link: nil) }
        col = prefix.width
        rowHasContent = false
    }

    /// Ends the line: places the held word, drops held spaces, ends the row.
    mutating func endLine() {
        endWord()
        spaces = 0
        if !inRow { startRow(.none) }
        endRow()
    }

    private mutating func endRow() {
        eraseTentative()
        if termLink != nil {
            write(theme.closeLink)
            termLink = nil
        }
        if termStyle != .plain {
            if theme.escapes { write(Self.plainSGR) }
            termStyle = .plain
        }
        out.append(0x0A)
        rowBytes.removeAll(keepingCapacity: true)
        if recordsRows { rowWidths.append(col) }
        col = 0
        inRow = false
        rowHasContent = false
    }

    /// Whether `rowWidths` is kept.
    var recordsRows = false
    /// Whether text may be shown tentatively and previews drawn: a terminal watched live, not a
    /// table cell being laid out.
    var live = true

    private mutating func wrap() {
        endRow()
        startRow(hanging)
    }

    // MARK: Words

    /// Adds text (no spaces or newlines) to the word being received.
    mutating func text(_ bytes: ArraySlice<UInt8>, _ style: TextStyle, link: String? = nil) {
        guard !bytes.isEmpty else { return }
        if !inRow { startRow(hanging) }
        if word.isEmpty { counter = WidthCounter() }
        word.append(contentsOf: bytes)
        wordWidth += counter.add(bytes)
        if let last = runs.last, last.style == style, last.link == link {
            runs[runs.count - 1].end = word.count
        } else {
            runs.append(Run(end: word.count, style: style, link: link))
        }
        breakLongWord()
    }

    /// A whole word (no spaces or newlines) with nothing held before it: placed at once, as
    /// `text` and `endWord` would place it, without holding it first.
    mutating func word(_ bytes: ArraySlice<UInt8>, _ style: TextStyle, link: String? = nil) {
        guard word.isEmpty, !bytes.isEmpty else {
            text(bytes, style, link: link)
            endWord()
            return
        }
        if !inRow { startRow(hanging) }
        let width = CellWidth.of(bytes)
        let room = rowHasContent ? limit - hanging.width : limit - col
        guard width <= max(room, 1) else {
            text(bytes, style, link: link)
            endWord()
            return
        }
        if !tentativeOut.isEmpty { eraseTentative() }
        if !rowHasContent {
            spaces = 0
        } else if col + spaces + width > limit {
            wrap()
            spaces = 0
        }
        putPendingSpaces()
        put(bytes, style, link: link)
        col += width
        rowHasContent = true
    }

    /// Ends the word being received: it goes on this row if it fits, else on the next.
    mutating func endWord() {
        guard !word.isEmpty else { return }
        if !rowHasContent {
            spaces = 0
        } else if col + spaces + wordWidth > limit {
            wrap()
            spaces = 0
        }
        if shownBytes == word.count && (spacesShown || spaces == 0) && !previewShown {
            // Already on the screen where it belongs.
            rowBytes += tentativeOut
            tentativeOut.removeAll(keepingCapacity: true)
            tentativeCells = 0
        } else {
            eraseTentative()
            if spaces > 0 { put(Self.blanks(spaces), spaceStyle, link: spaceLink) }
            putWord(from: 0, upTo: word.count)
        }
        col += spaces + wordWidth
        spaces = 0
        spacesShown = false
        shownBytes = 0
        rowHasContent = true
        word.removeAll(keepingCapacity: true)
        runs.removeAll(keepingCapacity: true)
        wordWidth = 0
    }

    /// Ends the word and holds `count` spaces, written only if a word follows on this row.
    mutating func space(_ count: Int, _ style: TextStyle = .plain, link: String? = nil) {
        endWord()
        guard rowHasContent else { return }
        spaces += count
        spaceStyle = style
        spaceLink = link
    }

    /// Writes `bytes` as they are, at once, with no wrapping (code: the terminal wraps it).
    mutating func raw(_ bytes: ArraySlice<UInt8>, _ style: TextStyle, width: Int) {
        endWord()
        if !inRow { startRow(hanging) }
        eraseTentative()
        putPendingSpaces()
        put(bytes, style, link: nil)
        col += width
        rowHasContent = true
    }

    /// Writes the spaces waiting before the next text, in their own style.
    private mutating func putPendingSpaces() {
        guard spaces > 0 else { return }
        put(Self.blanks(spaces), spaceStyle, link: spaceLink)
        col += spaces
        spaces = 0
    }

    /// Writes bytes that carry their own styles and end with a reset (a laid-out table cell).
    mutating func styled(_ bytes: [UInt8], width: Int) {
        endWord()
        if !inRow { startRow(hanging) }
        eraseTentative()
        if termLink != nil {
            write(theme.closeLink)
            termLink = nil
        }
        if termStyle != .plain {
            write(theme.reset)
            termStyle = .plain
        }
        write(bytes)
        col += width
        rowHasContent = true
    }

    /// A word wider than a whole row cannot wait for its end: what fills rows is written.
    private mutating func breakLongWord() {
        while true {
            let room = rowHasContent ? limit - hanging.width : limit - col
            guard wordWidth > max(room, 1) else { return }
            eraseTentative()
            if rowHasContent {
                wrap()
                spaces = 0
            }
            let (cut, cells) = Self.cut(word[...], fitting: max(limit - col, 1))
            putWord(from: 0, upTo: cut)
            col += cells
            rowHasContent = true
            word.removeFirst(cut)
            runs = runs.compactMap { run in
                run.end > cut ? Run(end: run.end - cut, style: run.style, link: run.link) : nil
            }
            wordWidth -= cells
            counter = WidthCounter()
            _ = counter.add(word[...])
            wrap()
        }
    }

    /// Where to cut `bytes` so the first part is at most `cells` wide and no grapheme cluster
    /// is split (never before a zero-width scalar or after a ZWJ); at least one cluster is taken.
    private static func cut(_ bytes: ArraySlice<UInt8>, fitting cells: Int) -> (index: Int, cells: Int) {
        var counter = WidthCounter()
        var used = 0
        var best = (index: 0, cells: 0)
        var previous: UInt32 = 0
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let (scalar, length) = UTF8Scalars.decode(bytes, at: index)
            let width = counter.add(scalar)
            let boundary = width > 0 && previous != 0x200D
            if boundary && index > bytes.startIndex {
                best = (index - bytes.startIndex, used)
                if used + width > cells { return best }
            }
            used += width
            previous = scalar
            index += length
        }
        return (bytes.count, used)
    }

    private mutating func putWord(from start: Int, upTo end: Int, tentative: Bool = false) {
        var runStart = 0
        for run in runs {
            let lower = max(runStart, start)
            let upper = min(run.end, end)
            if upper > lower { put(word[lower..<upper], run.style, link: run.link, tentative: tentative) }
            runStart = run.end
            if runStart >= end { break }
        }
    }

    // MARK: Tentative text

    /// Shows what of the held spaces and word is not on the screen yet, if the word still fits
    /// the row; if it no longer does, takes it back and wraps, and shows it on the new row.
    /// Called once a piece has been rendered: only the word still open at its end needs it.
    mutating func showTentative() {
        guard live, theme.escapes, inRow, !word.isEmpty, !previewShown else { return }
        let spacesNeeded = rowHasContent ? spaces : 0
        if col + spacesNeeded + wordWidth > limit {
            guard rowHasContent else { return }
            eraseTentative()
            wrap()
            spaces = 0
            guard col + wordWidth <= limit else { return }
        }
        if !spacesShown && rowHasContent && spaces > 0 {
            put(Self.blanks(spaces), spaceStyle, link: spaceLink, tentative: true)
            tentativeCells += spaces
            spacesShown = true
        }
        if shownBytes < word.count {
            let cells = CellWidth.of(word[shownBytes...])
            putWord(from: shownBytes, upTo: word.count, tentative: true)
            tentativeCells += cells
            shownBytes = word.count
        }
    }

    /// Takes everything tentative off the row. ASCII text takes the cells counted, so the cursor
    /// steps back over it; text whose width a terminal may count otherwise (emoji sequences,
    /// combining marks) is taken off by writing the row again from its start — unless the
    /// terminal has become narrower than the row and may have rewrapped it.
    private mutating func eraseTentative() {
        previewShown = false
        guard !tentativeOut.isEmpty else { return }
        if tentativeOut.allSatisfy({ $0 < 0x80 }) || width() <= col + tentativeCells {
            out += Array("\u{1B}[\(tentativeCells)D\u{1B}[K".utf8)
            out += committedStyle == .plain ? theme.reset : sgr(committedStyle)
            if let link = committedLink { out += theme.openLink(link) }
        } else {
            out += Self.rowStart
            out += rowBytes
        }
        termStyle = committedStyle
        termLink = committedLink
        tentativeOut.removeAll(keepingCapacity: true)
        tentativeCells = 0
        shownBytes = 0
        spacesShown = false
    }

    // MARK: Preview

    /// Shows the held word and then `extra` (what the Markdown layer holds) on the current row,
    /// as far as they fit (and within `cells` columns), without deciding anything; `erasePreview` takes it back off. Only on
    /// a terminal (it needs escapes).
    mutating func drawPreview(_ extra: [(bytes: ArraySlice<UInt8>, style: TextStyle)], cells: Int = .max) {
        guard live, theme.escapes, !previewShown else { return }
        showTentative()
        guard extra.contains(where: { !$0.bytes.isEmpty }) else { return }
        if word.isEmpty && rowHasContent && spaces > 0 && !spacesShown {
            put(Self.blanks(spaces), spaceStyle, link: spaceLink, tentative: true)
            tentativeCells += spaces
            spacesShown = true
        }
        let startCol = (inRow ? col : 0) + tentativeCells
        var room = min(max(width() - 1, 4), cells) - startCol
        guard room > 1 else { return }
        for segment in extra where !segment.bytes.isEmpty {
            let cells = CellWidth.of(segment.bytes)
            if cells > room {
                let (cut, cutCells) = Self.cut(segment.bytes, fitting: room - 1)
                put(segment.bytes.prefix(cut), segment.style, link: nil, tentative: true)
                put(Self.ellipsis[...], segment.style, link: nil, tentative: true)
                tentativeCells += cutCells + 1
                break
            }
            put(segment.bytes, segment.style, link: nil, tentative: true)
            tentativeCells += cells
            room -= cells
        }
        previewShown = true
    }

    /// Takes the preview (and any tentative word) back off the row.
    mutating func erasePreview() {
        guard previewShown else { return }
        eraseTentative()
    }

    // MARK: Writing

    private mutating func put(_ bytes: ArraySlice<UInt8>, _ style: TextStyle, link: String?, tentative: Bool = false) {
        if tentative && tentativeOut.isEmpty {
            committedStyle = termStyle
            committedLink = termLink
        }
        if theme.hyperlinks && link != termLink {
            if termLink != nil { write(theme.closeLink, tentative: tentative) }
            if let link { write(theme.openLink(link), tentative: tentative) }
            termLink = link
        }
        if style != termStyle {
            write(sgr(style, from: termStyle), tentative: tentative)
            termStyle = style
        }
        write(bytes, tentative: tentative)
    }

    private static let rowStart = Array("\r\u{1B}[0m\u{1B}[K".utf8)
    private static let spaceRun = [UInt8](repeating: 0x20, count: 64)

    /// `count` spaces, without making an array each time.
    private static func blanks(_ count: Int) -> ArraySlice<UInt8> {
        count <= spaceRun.count ? spaceRun[0..<count] : Array(repeating: 0x20, count: count)[...]
    }
    private static let ellipsis = Array("…".utf8)
    /// SGR sequences made so far: the full one, and the one from no style (a few styles are
    /// used, so a list searched in order beats hashing).
    private var sgrCache: [(style: TextStyle, full: [UInt8], fromPlain: [UInt8])] = []

    private mutating func cached(_ style: TextStyle) -> Int {
        for index in sgrCache.indices where sgrCache[index].style == style { return index }
        let full = theme.sgr(style)
        var fromPlain = full
        if fromPlain.count > 4 { fromPlain.removeSubrange(2..<4) }  // "0;"
        sgrCache.append((style, full, fromPlain))
        return sgrCache.count - 1
    }

    /// The theme's SGR sequence for `style`, made once.
    private mutating func sgr(_ style: TextStyle) -> [UInt8] {
        sgrCache[cached(style)].full
    }

    /// The shortest SGR sequence from `previous` to `style`: from no style, the new attributes
    /// alone (`ESC[1m`, not `ESC[0;1m`); to no style, `ESC[m`.
    private mutating func sgr(_ style: TextStyle, from previous: TextStyle) -> [UInt8] {
        guard theme.escapes else { return [] }
        if style == .plain { return Self.plainSGR }
        let index = cached(style)
        return previous == .plain ? sgrCache[index].fromPlain : sgrCache[index].full
    }

    private static let plainSGR = Array("\u{1B}[m".utf8)

    private mutating func write(_ bytes: ArraySlice<UInt8>, tentative: Bool = false) {
        out.append(contentsOf: bytes)
        if tentative {
            tentativeOut.append(contentsOf: bytes)
        } else {
            rowBytes.append(contentsOf: bytes)
        }
    }

    private mutating func write(_ bytes: [UInt8], tentative: Bool = false) {
        write(bytes[...], tentative: tentative)
    }
}
