/// Reads the scalars of UTF-8 bytes that hold whole scalars (as a Swift string's do).
enum UTF8Scalars {
    /// The length of the scalar whose lead byte is `byte`.
    static func length(lead byte: UInt8) -> Int {
        switch byte {
        case 0..<0x80: return 1
        case 0xC0..<0xE0: return 2
        case 0xE0..<0xF0: return 3
        case 0xF0...: return 4
        default: return 1  // a continuation byte on its own: step over it
        }
    }

    /// The scalar at `index` and its length in bytes.
    static func decode(_ bytes: ArraySlice<UInt8>, at index: Int) -> (scalar: UInt32, length: Int) {
        let lead = bytes[index]
        let length = min(length(lead: lead), bytes.endIndex - index)
        switch length {
        case 2:
            return ((UInt32(lead & 0x1F) << 6) | UInt32(bytes[index + 1] & 0x3F), 2)
        case 3:
            return (
                (UInt32(lead & 0x0F) << 12) | (UInt32(bytes[index + 1] & 0x3F) << 6)
                    | UInt32(bytes[index + 2] & 0x3F), 3
            )
        case 4:
            return (
                (UInt32(lead & 0x07) << 18) | (UInt32(bytes[index + 1] & 0x3F) << 12)
                    | (UInt32(bytes[index + 2] & 0x3F) << 6) | UInt32(bytes[index + 3] & 0x3F), 4
            )
        default:
            return (UInt32(lead), 1)
        }
    }
}
