/// Lays styled text out in rows for a terminal: words wrap at word boundaries one cell short of
/// the terminal's width (a row never reaches the last column, so no terminal is left in its
/// pending-wrap state), every row ends with a style reset and a newline and the next one reopens
/// what is open, and a word wider than a row is broken between grapheme clusters. The width is
/// read by the first row that needs it after `readWidthAgain` (once a piece of the answer: a
/// piece can end hundreds of rows, and each read is a system call), so a resize changes the rows
/// of the pieces after it. Rows already ended are never touched again.
///
/// Whether a word fits its row is known only when it ends. On a terminal the word being received
/// is shown at once all the same, *tentatively*: if it grows past the row's end, the row is
/// written again without it (carriage return, erase, the row's committed bytes) and the word
/// goes on the next row. `drawPreview` adds more tentative text (what the Markdown layer holds);
/// `erasePreview` takes it back. Without escapes (not a terminal) words are held until they end.
/// What the bytes are, and what they leave open, is `RowOutput`'s; the word is a `HeldWord`.
struct RowWriter {
    let theme: MarkdownTheme
    /// The terminal's width in cells, read at the start of a row when not read since
    /// `readWidthAgain`.
    var width: @Sendable () -> Int
    /// What `width` gave since `readWidthAgain`.
    private var widthRead: Int?
    private var output: RowOutput
    /// The cells used on the current row.
    private(set) var col = 0
    /// The last cell a row may use, plus one: the width less one.
    private(set) var limit = 79
    /// Whether the row holds text after its prefix.
    private(set) var rowHasContent = false
    /// Whether a row has been started and not yet ended.
    private(set) var inRow = false
    /// What starts a row that a long line wraps onto.
    var hanging = RowPrefix.none
    /// The width of each row ended so far, when `recordsRows` (table cells are laid out so).
    private(set) var rowWidths: [Int] = []
    /// Whether `rowWidths` is kept.
    var recordsRows = false
    /// Whether text may be shown tentatively and previews drawn: a terminal watched live, not a
    /// table cell being laid out.
    var live = true

    private var word = HeldWord()
    /// Spaces held after the last word, written only if a word follows on this row.
    private var spaces = 0
    private var spaceStyle = TextStyle.plain
    private var spaceLink: String?

    /// Bytes of `word` shown tentatively, and whether the held spaces before it are shown.
    private var shownBytes = 0
    private var spacesShown = false
    /// The cells of what is shown tentatively.
    private var tentativeCells = 0
    private var previewShown = false

    init(theme: MarkdownTheme, width: @escaping @Sendable () -> Int) {
        self.theme = theme
        self.width = width
        output = RowOutput(theme: theme)
    }

    /// Whether a word is held.
    var holdsText: Bool { !word.isEmpty }

    /// Whether everything held is on the screen (tentatively).
    var showsAllHeld: Bool { word.isEmpty || shownBytes == word.count }

    /// Returns what was written since the last call, and forgets it.
    mutating func takeOutput() -> [UInt8] {
        output.take()
    }

    /// Hands what was written since the last call to `body`, and forgets it (no copy).
    mutating func drainOutput(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        output.drain(body)
    }

    /// The next row that needs the terminal's width reads it again (a new piece has arrived).
    mutating func readWidthAgain() {
        widthRead = nil
    }

    /// The terminal's width, read once after each `readWidthAgain`.
    private mutating func terminalWidth() -> Int {
        if let widthRead { return widthRead }
        let read = width()
        widthRead = read
        return read
    }

    /// Starts again with nothing written, keeping what it has learnt (the SGR sequences): one
    /// writer lays out every cell of a table.
    mutating func reset(width: @escaping @Sendable () -> Int) {
        self.width = width
        widthRead = nil
        output.reset()
        rowWidths.removeAll(keepingCapacity: true)
        col = 0
        inRow = false
        rowHasContent = false
        hanging = .none
        word.removeAll()
        spaces = 0
        tentativeCells = 0
        shownBytes = 0
        spacesShown = false
        previewShown = false
    }

    // MARK: Rows

    /// Starts a row with `prefix`, reading the terminal's width.
    mutating func startRow(_ prefix: RowPrefix) {
        if inRow { endRow() }
        limit = max(terminalWidth() - 1, prefix.width + 1)
        inRow = true
        for segment in prefix.segments { output.put(segment.bytes[...], segment.style, link: nil) }
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
        output.endRow()
        if recordsRows { rowWidths.append(col) }
        col = 0
        inRow = false
        rowHasContent = false
    }

    private mutating func wrap() {
        endRow()
        startRow(hanging)
    }

    // MARK: Words

    /// Adds text (no spaces or newlines) to the word being received.
    mutating func text(_ bytes: ArraySlice<UInt8>, _ style: TextStyle, link: String? = nil) {
        guard !bytes.isEmpty else { return }
        if !inRow { startRow(hanging) }
        word.append(bytes, style, link: link)
        breakLongWord()
    }

    /// A whole word (no spaces or newlines) with nothing held before it: placed at once, as
    /// `text` and `endWord` would place it, without holding it first. `width`: its cells, when
    /// the caller knows them (ASCII: its bytes).
    mutating func word(_ bytes: ArraySlice<UInt8>, _ style: TextStyle, link: String? = nil, width known: Int? = nil) {
        guard word.isEmpty, !bytes.isEmpty else {
            text(bytes, style, link: link)
            endWord()
            return
        }
        if !inRow { startRow(hanging) }
        let width = known ?? CellWidth.of(bytes)
        let room = rowHasContent ? limit - hanging.width : limit - col
        guard width <= max(room, 1) else {
            text(bytes, style, link: link)
            endWord()
            return
        }
        if output.holdsTentative { eraseTentative() }
        if !rowHasContent {
            spaces = 0
        } else if col + spaces + width > limit {
            wrap()
            spaces = 0
        }
        putPendingSpaces()
        output.put(bytes, style, link: link)
        col += width
        rowHasContent = true
    }

    /// Whether runs of words may be placed at once (`placeWords`, a table's plain cells, a code
    /// line's tokens of one style): tests turn it off to compare with one at a time.
    var placesRuns = true

    /// Whether `placeWords` may place text now: a row with text on it, no word held, no spaces
    /// waiting, nothing shown tentatively.
    var takesWords: Bool {
        placesRuns && inRow && rowHasContent && word.isEmpty && spaces == 0 && !previewShown && !output.holdsTentative
    }

    /// Whole words and the spaces between them (`  and a sentence`, spaces first; CJK
    /// ideographs, a word each), `cells` wide, that fit on the row after its text, when
    /// `takesWords`: written at once, the bytes and styles that `space` and `word` for each would
    /// write (the spaces held are the spaces written).
    mutating func placeWords(_ bytes: ArraySlice<UInt8>, cells: Int, _ style: TextStyle, link: String?) {
        output.put(bytes, style, link: link)
        col += cells
    }

    /// Ends the word being received: it goes on this row if it fits, else on the next.
    mutating func endWord() {
        guard !word.isEmpty else { return }
        if !rowHasContent {
            spaces = 0
        } else if col + spaces + word.width > limit {
            wrap()
            spaces = 0
        }
        if shownBytes == word.count && (spacesShown || spaces == 0) && !previewShown {
            // Already on the screen where it belongs.
            output.commitTentative()
            tentativeCells = 0
        } else {
            eraseTentative()
            if spaces > 0 { output.putSpaces(spaces, spaceStyle, link: spaceLink) }
            word.write(from: 0, upTo: word.count, to: &output)
        }
        col += spaces + word.width
        spaces = 0
        spacesShown = false
        shownBytes = 0
        rowHasContent = true
        word.removeAll()
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
        output.put(bytes, style, link: nil)
        col += width
        rowHasContent = true
    }

    /// Writes the spaces waiting before the next text, in their own style.
    private mutating func putPendingSpaces() {
        guard spaces > 0 else { return }
        output.putSpaces(spaces, spaceStyle, link: spaceLink)
        col += spaces
        spaces = 0
    }

    /// Writes bytes that carry their own styles and end with a reset (a laid-out table cell).
    mutating func styled(_ bytes: ArraySlice<UInt8>, width: Int) {
        endWord()
        if !inRow { startRow(hanging) }
        eraseTentative()
        output.putStyled(bytes)
        col += width
        rowHasContent = true
    }

    /// A word wider than a whole row cannot wait for its end: what fills rows is written.
    private mutating func breakLongWord() {
        while true {
            let room = rowHasContent ? limit - hanging.width : limit - col
            guard word.width > max(room, 1) else { return }
            eraseTentative()
            if rowHasContent {
                wrap()
                spaces = 0
            }
            let (cut, cells) = CellWidth.cut(word.bytes[...], fitting: max(limit - col, 1))
            word.write(from: 0, upTo: cut, to: &output)
            col += cells
            rowHasContent = true
            word.removeFirst(cut, cells: cells)
            wrap()
        }
    }

    // MARK: Tentative text

    /// Shows what of the held spaces and word is not on the screen yet, if the word still fits
    /// the row; if it no longer does, takes it back and wraps, and shows it on the new row.
    /// Called once a piece has been rendered: only the word still open at its end needs it.
    mutating func showTentative() {
        guard live, theme.escapes, inRow, !word.isEmpty, !previewShown else { return }
        let spacesNeeded = rowHasContent ? spaces : 0
        if col + spacesNeeded + word.width > limit {
            guard rowHasContent else { return }
            eraseTentative()
            wrap()
            spaces = 0
            guard col + word.width <= limit else { return }
        }
        if !spacesShown && rowHasContent && spaces > 0 {
            showHeldSpaces()
        }
        if shownBytes < word.count {
            let cells = CellWidth.of(word.bytes[shownBytes...])
            word.write(from: shownBytes, upTo: word.count, to: &output, tentative: true)
            tentativeCells += cells
            shownBytes = word.count
        }
    }

    private mutating func showHeldSpaces() {
        output.put(Self.blanks(spaces), spaceStyle, link: spaceLink, tentative: true)
        tentativeCells += spaces
        spacesShown = true
    }

    /// Takes everything tentative off the row. ASCII text takes the cells counted, so the cursor
    /// steps back over it; text whose width a terminal may count otherwise (emoji sequences,
    /// combining marks) is taken off by writing the row again from its start — unless the
    /// terminal has become narrower than the row and may have rewrapped it.
    private mutating func eraseTentative() {
        previewShown = false
        guard output.holdsTentative else { return }
        output.takeBackTentative(
            cells: tentativeCells, stepBack: output.tentativeIsASCII || terminalWidth() <= col + tentativeCells)
        tentativeCells = 0
        shownBytes = 0
        spacesShown = false
    }

    // MARK: Preview

    /// Shows the held word and then `extra` (what the Markdown layer holds) on the current row,
    /// as far as they fit (and within `cells` columns), without deciding anything;
    /// `erasePreview` takes it back off. Only on a terminal (it needs escapes).
    mutating func drawPreview(_ extra: [(bytes: ArraySlice<UInt8>, style: TextStyle)], cells: Int = .max) {
        guard live, theme.escapes, !previewShown else { return }
        showTentative()
        guard extra.contains(where: { !$0.bytes.isEmpty }) else { return }
        if word.isEmpty && rowHasContent && spaces > 0 && !spacesShown {
            showHeldSpaces()
        }
        let startCol = (inRow ? col : 0) + tentativeCells
        var room = min(max(terminalWidth() - 1, 4), cells) - startCol
        guard room > 1 else { return }
        for segment in extra where !segment.bytes.isEmpty {
            let cells = CellWidth.of(segment.bytes)
            if cells > room {
                let (cut, cutCells) = CellWidth.cut(segment.bytes, fitting: room - 1)
                output.put(segment.bytes.prefix(cut), segment.style, link: nil, tentative: true)
                output.put(Self.ellipsis[...], segment.style, link: nil, tentative: true)
                tentativeCells += cutCells + 1
                break
            }
            output.put(segment.bytes, segment.style, link: nil, tentative: true)
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

    private static let spaceRun = [UInt8](repeating: 0x20, count: 64)
    private static let ellipsis = Array("…".utf8)

    /// `count` spaces, without making an array each time.
    private static func blanks(_ count: Int) -> ArraySlice<UInt8> {
        count <= spaceRun.count ? spaceRun[0..<count] : Array(repeating: 0x20, count: count)[...]
    }
}
