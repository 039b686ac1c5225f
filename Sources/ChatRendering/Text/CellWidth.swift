/// How many terminal cells text takes: two for East Asian Wide and Fullwidth characters (CJK,
/// most emoji), none for combining marks, format characters and variation selectors, one for the
/// rest. A ZWJ sequence counts as the sum of its parts, as most terminals draw it; where a
/// terminal joins it, the estimate is too wide, which in text laid out a row at a time only
/// leaves a row a little shorter. Tables: `CellWidthTable`, generated.
package enum CellWidth {
    /// The cells one scalar takes on its own.
    static func of(_ scalar: UInt32) -> Int {
        if scalar < 0x300 { return 1 }
        if wideBlock.contains(scalar) { return 2 }
        if contains(CellWidthTable.zero, scalar) { return 0 }
        if contains(CellWidthTable.wide, scalar) { return 2 }
        return 1
    }

    /// Whether a scalar takes no cell of its own (it joins the one before it).
    static func isZeroWidth(_ scalar: UInt32) -> Bool {
        scalar >= 0x300 && !wideBlock.contains(scalar) && contains(CellWidthTable.zero, scalar)
    }

    /// Whether a scalar is drawn two cells wide.
    static func isWide(_ scalar: UInt32) -> Bool {
        scalar >= 0x1100 && (wideBlock.contains(scalar) || contains(CellWidthTable.wide, scalar))
    }

    /// CJK ideographs, Yi and the symbols between: one range of `CellWidthTable.wide` that holds
    /// no zero-width scalar, where most CJK text falls, answered without a search (a test checks
    /// it against the tables).
    static var wideBlock: ClosedRange<UInt32> { 0x3250...0xA48C }

    /// The cells of UTF-8 text made of whole scalars (see `WidthCounter`).
    static func of(_ bytes: ArraySlice<UInt8>) -> Int {
        let ascii = bytes.withUnsafeBufferPointer { buffer -> Bool in
            for byte in buffer where byte >= 0x80 { return false }
            return true
        }
        if ascii { return bytes.count }
        var counter = WidthCounter()
        return counter.add(bytes)
    }

    /// Whether VS16 after this narrow scalar draws it as a two-cell emoji.
    static func isNarrowEmoji(_ scalar: UInt32) -> Bool {
        scalar >= 0x23 && contains(CellWidthTable.narrowEmoji, scalar)
    }

    /// The cells of a string.
    package static func of(_ text: String) -> Int {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8.count }
        var counter = WidthCounter()
        var cells = 0
        for scalar in text.unicodeScalars { cells += counter.add(scalar.value) }
        return cells
    }

    /// Where to cut `bytes` so the first part is at most `cells` wide and no grapheme cluster is
    /// split (never before a zero-width scalar or after a ZWJ); at least one cluster is taken.
    /// Returns the first part's length in bytes and its cells.
    static func cut(_ bytes: ArraySlice<UInt8>, fitting cells: Int) -> (index: Int, cells: Int) {
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

    private static func contains(_ table: [(UInt32, UInt32)], _ scalar: UInt32) -> Bool {
        var low = 0
        var high = table.count - 1
        while low <= high {
            let middle = (low + high) / 2
            if scalar < table[middle].0 {
                high = middle - 1
            } else if scalar > table[middle].1 {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }
}
