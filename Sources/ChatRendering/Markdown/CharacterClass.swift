/// What the byte beside a delimiter run is, for Markdown's emphasis rules (and whether a link may
/// start): a space (or a line's end), ASCII punctuation, or anything else.
enum CharacterClass {
    case space, punctuation, other

    /// The class of `byte`; bytes of non-ASCII scalars are `other`.
    init(_ byte: UInt8) {
        if byte == 0x20 || byte == 0x09 || byte == 0x0A {
            self = .space
        } else {
            self = byte < 0x80 && Self.isPunctuation(byte) ? .punctuation : .other
        }
    }

    /// Whether `byte` is ASCII punctuation (what a backslash escapes).
    static func isPunctuation(_ byte: UInt8) -> Bool {
        (0x21...0x2F).contains(byte) || (0x3A...0x40).contains(byte) || (0x5B...0x60).contains(byte)
            || (0x7B...0x7E).contains(byte)
    }
}
