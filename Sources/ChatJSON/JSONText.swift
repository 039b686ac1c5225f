import ChatDomain

/// JSON written straight into bytes: compact (or indented, `"key" : value`, when `pretty`),
/// slashes unescaped, each object's keys sorted by their UTF-8 bytes; the one JSON writer of
/// chat (the files earlier versions wrote with Foundation's coders read the same). Members are written in the order given; a shape's field list is sorted.
public struct JSONText {
    public private(set) var bytes: [UInt8] = []
    /// Indented, one member or element a line, `"key" : value`.
    let pretty: Bool
    private var depth = 0
    private var isFirst = true

    /// An empty text with room for `capacity` bytes; indented when `pretty`.
    public init(capacity: Int = 256, pretty: Bool = false) {
        bytes.reserveCapacity(capacity)
        self.pretty = pretty
    }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Opens an object (`{`) or an array (`[`).
    mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        if pretty { bytes.append(UInt8(ascii: "\n")) }
        depth += 1
        isFirst = true
    }

    /// Closes what `open` opened with the matching bracket.
    mutating func close(_ bracket: UInt8) {
        depth -= 1
        if pretty {
            bytes.append(UInt8(ascii: "\n"))
            indent()
        }
        bytes.append(bracket)
        isFirst = false
    }

    /// Starts an array's next element.
    mutating func element() {
        if !isFirst { bytes.append(UInt8(ascii: ",")) }
        if pretty {
            if !isFirst { bytes.append(UInt8(ascii: "\n")) }
            indent()
        }
        isFirst = false
    }

    /// Starts an object's next member: its key, given as `"name"` (quoted, nothing to escape).
    mutating func member(_ quotedKey: [UInt8]) {
        element()
        bytes.append(contentsOf: quotedKey)
        separateValue()
    }

    /// Starts an object's next member whose key may need escaping (a `JSONValue`'s).
    mutating func member(named key: String) {
        element()
        string(key)
        separateValue()
    }

    /// The `:` between a member's key and its value.
    private mutating func separateValue() {
        if pretty {
            bytes.append(contentsOf: [UInt8(ascii: " "), UInt8(ascii: ":"), UInt8(ascii: " ")])
        } else {
            bytes.append(UInt8(ascii: ":"))
        }
    }

    private mutating func indent() {
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    /// A string, escaped as Foundation escapes it: `"` and `\`, the short escapes for backspace,
    /// form feed, newline, carriage return and tab, `\u00xx` for the other control characters.
    public mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return }
            var start = 0
            var index = 0
            while index < utf8.count {
                // Eight bytes at a time while none needs escaping (a long text's usual case).
                if index + 8 <= utf8.count,
                    !Self.needsEscaping(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                {
                    index += 8
                    continue
                }
                let byte = base[index]
                index += 1
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                let escaped = index - 1
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<escaped]))
                start = index
                switch byte {
                case UInt8(ascii: "\""): raw("\\\"")
                case UInt8(ascii: "\\"): raw("\\\\")
                case 0x08: raw("\\b")
                case 0x0C: raw("\\f")
                case 0x0A: raw("\\n")
                case 0x0D: raw("\\r")
                case 0x09: raw("\\t")
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    raw("\\u00")
                    bytes.append(hex[Int(byte >> 4)])
                    bytes.append(hex[Int(byte & 0x0F)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Whether any of the eight bytes in `word` is below 0x20, `"` or `\` (the "has a byte
    /// less than" and "has a zero byte" tests of Bit Twiddling Hacks: exact for "any").
    private static func needsEscaping(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ x: UInt64) -> Bool { (x &- ones) & ~x & highs != 0 }
        let control = (word &- ones &* 0x20) & ~word & highs != 0
        return control || hasZero(word ^ (ones &* 0x22)) || hasZero(word ^ (ones &* 0x5C))
    }

    mutating func bool(_ value: Bool) {
        value ? raw("true") : raw("false")
    }

    public mutating func int(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A finite number as Foundation writes it: the shortest form that reads back the same,
    /// without a trailing `.0`. False (and nothing written) for infinity or NaN.
    public mutating func double(_ value: Double) -> Bool {
        guard value.isFinite else { return false }
        var text = String(describing: value)
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
        return true
    }
}
