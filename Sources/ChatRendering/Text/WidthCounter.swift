/// Adds up the cells of text that arrives in parts, carrying across parts what the width of the
/// next scalar depends on (VS16 after a narrow emoji, the second regional indicator of a flag, a
/// skin-tone modifier after an emoji), so the sum does not depend on where the parts were cut.
struct WidthCounter {
    private var previous: UInt32 = 0
    private var pairedIndicator = false

    /// The cells `bytes` (whole scalars) add.
    mutating func add(_ bytes: ArraySlice<UInt8>) -> Int {
        var width = 0
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte < 0x80 {
                width += 1
                previous = UInt32(byte)
                pairedIndicator = false
                index += 1
                continue
            }
            let (scalar, length) = UTF8Scalars.decode(bytes, at: index)
            width += add(scalar)
            index += length
        }
        return width
    }

    /// The cells one more scalar adds.
    mutating func add(_ scalar: UInt32) -> Int {
        defer { previous = scalar }
        switch scalar {
        case 0xFE0F:
            pairedIndicator = false
            return CellWidth.isNarrowEmoji(previous) ? 1 : 0
        case 0x1F3FB...0x1F3FF where CellWidth.isWide(previous):
            pairedIndicator = false
            return 0
        case 0x1F1E6...0x1F1FF:
            pairedIndicator.toggle()
            return pairedIndicator ? 2 : 0
        default:
            pairedIndicator = false
            return CellWidth.of(scalar)
        }
    }
}
