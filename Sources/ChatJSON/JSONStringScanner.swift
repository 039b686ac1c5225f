/// Checks and reads JSON string values in UTF-8 bytes: the string part of `JSONReader`, eight
/// bytes at a time where nothing needs escaping. Standard library only.
struct JSONStringScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// Where scanning goes on: after `scan`, just past the closing quote.
    private(set) var position: Int

    /// A scanner of `bytes` at `position`, where a string's opening quote should be.
    init(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int) {
        self.bytes = bytes
        self.position = position
    }

    private static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")

    @inline(__always)
    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    /// Checks the string value at `position` and moves past it: the byte range between its quotes,
    /// and whether it holds escapes. Fails on a raw control character, an unknown escape and a
    /// `\u` without four hex digits; a lone surrogate is no failure (`unescape` makes it U+FFFD).
    mutating func scan() -> (range: Range<Int>, escaped: Bool)? {
        guard current == Self.quote else { return nil }
        position += 1
        let start = position
        // Fast part: plain bytes, up to the closing quote or the first escape, eight at a time
        // (every string of every chunk passes here): the first special byte of a word is found
        // from its mask, so a short string costs one or two words.
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while position + 8 <= bytes.count {
                // Little-endian order whatever the machine's, so the lowest set bit is the first byte.
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
                let mask = Self.specialBytes(word)
                if mask == 0 {
                    position += 8
                } else {
                    position += mask.trailingZeroBitCount >> 3
                    break
                }
            }
        }
        while position < bytes.count {
            let byte = bytes[position]
            if byte == Self.quote {
                position += 1
                return (start..<(position - 1), false)
            }
            if byte == Self.backslash || byte < 0x20 { break }
            position += 1
        }
        var escaped = false
        while let byte = current {
            position += 1
            switch byte {
            case Self.quote:
                return (start..<(position - 1), escaped)
            case Self.backslash:
                escaped = true
                guard let kind = current else { return nil }
                position += 1
                switch kind {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    continue
                case UInt8(ascii: "u"):
                    guard readUnicodeEscape() != nil else { return nil }
                default:
                    return nil
                }
            default:
                if byte < 0x20 { return nil }
            }
        }
        return nil
    }

    /// The bytes of `word` (eight input bytes, little-endian) that are a quote, a backslash or a
    /// control character (below 0x20), as their high bits: the classic "has a zero byte" bit
    /// trick, three times. Bytes above the first flagged one may be flagged wrongly; the lowest
    /// flagged byte is always right, and only it is used.
    @inline(__always)
    private static func specialBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func zeroBytes(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
        let below0x20 = (word &- ones &* 0x20) & ~word & highs
        return below0x20 | zeroBytes(word ^ (ones &* 0x22)) | zeroBytes(word ^ (ones &* 0x5C))
    }

    /// The text of string bytes `scan` found valid, escapes resolved.
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        var reader = JSONStringScanner(raw, at: 0)
        var text: [UInt8] = []
        text.reserveCapacity(raw.count)
        while let byte = reader.current {
            reader.position += 1
            guard byte == backslash, let kind = reader.current else {
                text.append(byte)
                continue
            }
            reader.position += 1
            switch kind {
            case UInt8(ascii: "b"): text.append(0x08)
            case UInt8(ascii: "f"): text.append(0x0C)
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "t"): text.append(0x09)
            case UInt8(ascii: "u"):
                if let scalar = reader.readUnicodeEscape() { UTF8.encode(scalar) { text.append($0) } }
            default: text.append(kind)  // " \ /
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The scalar of a `\uXXXX` escape (the `\u` already read), joining a surrogate pair; a
    /// lone or reversed surrogate is U+FFFD (as invalid UTF-8 bytes are), and what follows it is
    /// read on its own. Nil only for an escape without four hex digits.
    private mutating func readUnicodeEscape() -> Unicode.Scalar? {
        guard let first = readHex4() else { return nil }
        switch first {
        case 0xD800...0xDBFF:
            if current == Self.backslash, position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u") {
                let next = position
                position += 2
                if let low = readHex4(), (0xDC00...0xDFFF).contains(low) {
                    return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (low - 0xDC00))
                }
                position = next  // not a low surrogate: the next escape stands alone
            }
            return Self.replacement
        case 0xDC00...0xDFFF:
            return Self.replacement
        default:
            return Unicode.Scalar(first)
        }
    }

    private static let replacement: Unicode.Scalar = "\u{FFFD}"

    private mutating func readHex4() -> UInt32? {
        guard position + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }
}
