/// Text that is ASCII, where a character is a byte (a CR LF pair aside, which a line never
/// holds), so what `Character`s would decide can be decided on bytes without walking grapheme
/// clusters.
enum ASCIIText {
    /// `bytes` without leading and trailing whitespace (as `trimmingCharacters()` trims a
    /// string), or nil when they are not all ASCII.
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end && isSpace(bytes[start]) { start += 1 }
        while end > start && isSpace(bytes[end - 1]) { end -= 1 }
        return bytes[start..<end]
    }

    /// ASCII's whitespace: tab, newline, vertical tab, form feed, carriage return and space.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }
}
