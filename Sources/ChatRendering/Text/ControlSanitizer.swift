/// Makes model text safe to show: no byte of it can act as a terminal command. Control
/// characters are shown in caret notation (`ESC` as `^[`, so an escape sequence appears as text
/// and does nothing), C1 controls as U+FFFD, carriage returns are dropped (CRLF becomes LF; a
/// lone CR would draw over the line). Newline and tab pass: the renderer lays them out itself.
/// Works scalar by scalar, so a piece boundary anywhere gives the same result.
package enum ControlSanitizer {
    /// Appends the UTF-8 bytes of `text`, made safe, to `bytes`.
    static func append(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        let clean = text.withUTF8 { utf8 -> Bool in
            guard isClean(utf8) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if !clean { bytes += sanitized(text) }
    }

    /// Whether `utf8` needs nothing done: no control character but newline and tab, no DEL, no
    /// C1 control (`0xC2` then a byte below `0xA0`). Eight bytes of printable ASCII, most of any
    /// text, are passed at once; the rest a byte at a time.
    private static func isClean(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = utf8.baseAddress else { return true }
        let count = utf8.count
        var index = 0
        while index < count {
            if index + 8 <= count
                && printableASCII(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            {
                index += 8
                continue
            }
            let end = min(index + 8, count)
            while index < end {
                let byte = base[index]
                index += 1
                if byte &- 0x20 < 0x5F || byte == 0x0A || byte == 0x09 { continue }
                if byte < 0x20 || byte == 0x7F { return false }
                if byte == 0xC2 && index < count && base[index] < 0xA0 { return false }
            }
        }
        return true
    }

    /// Whether each of the eight bytes of `word` is printable ASCII (0x20 to 0x7E): no byte with
    /// its high bit set, none below 0x20, none equal to 0x7F (the bit tricks of "Bit Twiddling
    /// Hacks": a byte less than n, a zero byte).
    private static func printableASCII(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let below = (word &- ones &* 0x20) & ~word & highs
        let delete = word ^ (ones &* 0x7F)
        let isDelete = (delete &- ones) & ~delete & highs
        return (word & highs) | below | isDelete == 0
    }

    /// `text`, made safe, as a string (for the notes stream and prompts).
    package static func safe(_ text: String) -> String {
        String(decoding: sanitized(text), as: UTF8.self)
    }

    /// The UTF-8 bytes of `text`, made safe.
    static func sanitized(_ text: String) -> [UInt8] {
        var text = text
        return text.withUTF8 { bytes in
            var needed = false
            var previous: UInt8 = 0
            for byte in bytes {
                if (byte < 0x20 && byte != 0x0A && byte != 0x09) || byte == 0x7F || (previous == 0xC2 && byte < 0xA0) {
                    needed = true
                    break
                }
                previous = byte
            }
            guard needed else { return Array(bytes) }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + 8)
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case 0x0A, 0x09:
                    out.append(byte)
                case 0x0D:
                    break
                case 0x00..<0x20:
                    out.append(0x5E)  // ^
                    out.append(byte + 0x40)
                case 0x7F:
                    out.append(contentsOf: [0x5E, 0x3F])  // ^?
                case 0xC2 where index + 1 < bytes.count && bytes[index + 1] < 0xA0:
                    out.append(contentsOf: [0xEF, 0xBF, 0xBD])  // U+FFFD
                    index += 1
                default:
                    out.append(byte)
                }
                index += 1
            }
            return out
        }
    }
}
