/// What a server says is data, never terminal commands: text a server chose (an error message,
/// an error event, a quoted chunk, a header value, a model name) made safe to print as part of
/// one line.
///
/// - Escape sequences are removed whole: CSI (`ESC [` … final byte, or C1 `0x9B`), OSC, DCS,
///   SOS, PM and APC strings (up to BEL or ST), and two-character escapes (`ESC c`, `ESC 7`).
/// - Other C0 and C1 control characters and DEL are removed, as are the bidirectional
///   embedding, override and isolate characters (U+202A–U+202E, U+2066–U+2069), which can make
///   a line read as something else.
/// - Line breaks (LF, CR, VT, FF, NEL, U+2028, U+2029) and tabs are folded: each run of them
///   and spaces becomes one space, and the text is trimmed.
/// - The result is cut to `limit` characters, ending in `…` when cut.
public enum ServerText {
    /// `text` as one safe line of at most `limit` characters (plus `…`).
    public static func line(_ text: String, limit: Int = 240) -> String {
        var scalars = String.UnicodeScalarView()
        var pendingSpace = false
        var iterator = text.unicodeScalars.makeIterator()
        var lookahead: Unicode.Scalar?
        func next() -> Unicode.Scalar? {
            if let scalar = lookahead {
                lookahead = nil
                return scalar
            }
            return iterator.next()
        }
        while let scalar = next() {
            switch scalar.value {
            case 0x1B:
                guard let kind = next() else { break }
                switch kind.value {
                case 0x5B: lookahead = skipControlSequence(next)  // ESC [
                case 0x5D, 0x50, 0x58, 0x5E, 0x5F: lookahead = skipString(next)  // ESC ] P X ^ _
                case 0x20...0x2F:  // intermediates, then one final character
                    var following = next()
                    while let byte = following?.value, (0x20...0x2F).contains(byte) { following = next() }
                    if let byte = following?.value, !(0x30...0x7E).contains(byte) { lookahead = following }
                case 0x30...0x7E: break  // a two-character escape
                default: lookahead = kind
                }
            case 0x9B: lookahead = skipControlSequence(next)
            case 0x9D, 0x90, 0x98, 0x9E, 0x9F: lookahead = skipString(next)
            case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0x2028, 0x2029:
                pendingSpace = true
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069:
                break
            default:
                if pendingSpace && !scalars.isEmpty { scalars.append(" ") }
                pendingSpace = false
                scalars.append(scalar)
            }
        }
        let clean = String(scalars)
        guard clean.count > limit else { return clean }
        var cut = String(clean.prefix(limit))
        while cut.last == " " { cut.removeLast() }
        return cut + "…"
    }

    /// Skips a control sequence's parameter and intermediate bytes and its final byte; returns
    /// the character after it if that was not part of the sequence.
    private static func skipControlSequence(_ next: () -> Unicode.Scalar?) -> Unicode.Scalar? {
        while let scalar = next() {
            switch scalar.value {
            case 0x20...0x3F: continue
            case 0x40...0x7E: return nil
            default: return scalar
            }
        }
        return nil
    }

    /// Skips a string command (OSC, DCS, …) up to its end: BEL, ESC \ or ST (0x9C). The whole rest
    /// of the text if it never ends.
    private static func skipString(_ next: () -> Unicode.Scalar?) -> Unicode.Scalar? {
        while let scalar = next() {
            switch scalar.value {
            case 0x07, 0x9C: return nil
            case 0x1B:
                guard let after = next() else { return nil }
                if after.value == 0x5C { return nil }
            default: continue
            }
        }
        return nil
    }
}
