#if canImport(Glibc)
    import ChatDomain

    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads JSON text, straight from its UTF-8 bytes: strict about the syntax, lenient about
/// meaning. The one JSON reader of the Data layer: a DTO is read by the `switch` over the keys it
/// reads (`JSONObjectDTO`), anything without a shape into a `JSONValue` (`JSONParser`), both
/// through the same functions here (values, strings and numbers) and in `JSONReader+Objects`
/// (objects and arrays).
///
/// Strict: exactly RFC 8259's grammar (no trailing comma, comment, single quote, leading zero,
/// `NaN` or text after the value; only a leading UTF-8 byte order mark is skipped), and a syntax
/// error names its line and column. Lenient, as the OpenAI SDKs' parsers are: a key that appears
/// twice takes its last value; a lone or reversed surrogate escape (`"\ud800"`) is U+FFFD, as are
/// bytes that are not UTF-8; a member of another type than a DTO reads it as is left out.
/// Nesting deeper than `maxDepth` is an error, never a crash. Standard library only, and `memcmp`.
public struct JSONReader {
    /// The deepest nesting read.
    static let maxDepth = 512

    /// The text.
    let bytes: UnsafeBufferPointer<UInt8>
    /// Where reading goes on.
    var position = 0
    /// How deep in objects and arrays the position is.
    var depth = 0
    /// Whether to note the text's shape in `recorder` (`JSONShape`).
    let recording: Bool
    var recorder = JSONShapeRecorder()

    private init(_ bytes: UnsafeBufferPointer<UInt8>, recording: Bool = false) {
        self.bytes = bytes
        self.recording = recording
    }

    /// The value `bytes` (UTF-8) hold, as `Value`: nil if it is JSON of another type.
    public static func read<Value: JSONReadable>(
        _ type: Value.Type, from bytes: UnsafeBufferPointer<UInt8>
    ) throws(JSONSyntaxError) -> Value? {
        var reader = JSONReader(bytes)
        return try reader.readWhole()
    }

    /// The value `bytes` (UTF-8) hold, as `Value`, noting their shape in `recorder`.
    public static func read<Value: JSONReadable>(
        _ type: Value.Type, from bytes: UnsafeBufferPointer<UInt8>, recording recorder: inout JSONShapeRecorder
    ) throws(JSONSyntaxError) -> Value? {
        var reader = JSONReader(bytes, recording: true)
        defer { recorder = reader.recorder }
        return try reader.readWhole()
    }

    /// The one value the text holds, and nothing after it.
    private mutating func readWhole<Value: JSONReadable>() throws(JSONSyntaxError) -> Value? {
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { position = 3 }
        skipWhitespace()
        let value: Value? = try read()
        skipWhitespace()
        guard position == bytes.count else { throw error("text after the JSON value") }
        return value
    }

    /// The value `bytes` (UTF-8) hold, as `Value`: nil if it is JSON of another type.
    public static func read<Value: JSONReadable>(_ type: Value.Type, from bytes: [UInt8]) throws(JSONSyntaxError)
        -> Value?
    {
        let result: Result<Value?, JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(JSONSyntaxError) {
                return .success(try read(type, from: buffer))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The value `text` holds, as `Value`: nil if it is JSON of another type.
    public static func read<Value: JSONReadable>(_ type: Value.Type, from text: String) throws(JSONSyntaxError)
        -> Value?
    {
        try read(type, from: Array(text.utf8))
    }

    // MARK: - Values

    public static let quote = UInt8(ascii: "\"")

    /// The byte at the position; nil at the end.
    @inline(__always)
    public var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    /// Whether the value at the position is a number (it starts with `-` or a digit).
    @inline(__always)
    var atNumber: Bool {
        guard let byte = current else { return false }
        return byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    /// The value at the position, as `Value`; nil if it is JSON of another type (checked and
    /// skipped).
    @inline(__always)
    public mutating func read<Value: JSONReadable>() throws(JSONSyntaxError) -> Value? {
        try startValue()
        return try Value.read(from: &self)
    }

    /// Checks that a value may start at the position.
    @inline(__always)
    private func startValue() throws(JSONSyntaxError) {
        guard depth < Self.maxDepth else { throw error("nested more than \(Self.maxDepth) deep") }
        guard current != nil else { throw error("the text ends where a value should be") }
    }

    /// Checks the value at the position and moves past it.
    public mutating func skipValue() throws(JSONSyntaxError) {
        try startValue()
        switch current {
        case UInt8(ascii: "{"):
            try readMembers { _, reader throws(JSONSyntaxError) in try reader.skipValue() }
        case UInt8(ascii: "["):
            try readElements { reader throws(JSONSyntaxError) in try reader.skipValue() }
        case Self.quote:
            let (range, _) = try scanString()
            if recording { recorder.passedOver(range) }
        case UInt8(ascii: "t"):
            try readLiteral("true")
        case UInt8(ascii: "f"):
            try readLiteral("false")
        case UInt8(ascii: "n"):
            try readLiteral("null")
        default:
            guard atNumber else { throw notAValue() }
            let start = position
            _ = try scanNumber()
            if recording { recorder.passedOverNumber(start..<position) }
        }
    }

    /// The value at the position, whatever it is.
    mutating func readValue() throws(JSONSyntaxError) -> JSONValue {
        try startValue()
        switch current {
        case UInt8(ascii: "{"):
            // Room for a few members from the start: growing from empty resized a two-member
            // object (a saved conversation's message) twice.
            var members = [String: JSONValue](minimumCapacity: 4)
            try readMembers { key, reader throws(JSONSyntaxError) in members[key.text] = try reader.readValue() }
            return .object(members)
        case UInt8(ascii: "["):
            var elements: [JSONValue] = []
            try readElements { reader throws(JSONSyntaxError) in elements.append(try reader.readValue()) }
            return .array(elements)
        case Self.quote:
            return .string(try readString())
        case UInt8(ascii: "t"):
            try readLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try readLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try readLiteral("null")
            return .null
        default:
            guard atNumber else { throw notAValue() }
            return .number(try readNumber())
        }
    }

    /// What is wrong with a byte where a value should start.
    private func notAValue() -> JSONSyntaxError {
        guard let byte = current else { return error("the text ends where a value should be") }
        return error("\(Self.describe(byte)) where a value should be")
    }

    /// Reads `null` if it is at the position; false (and nothing read) otherwise.
    @inline(__always)
    mutating func readNull() -> Bool {
        guard current == UInt8(ascii: "n"), matches("null") else { return false }
        position += 4
        return true
    }

    mutating func readLiteral(_ word: StaticString) throws(JSONSyntaxError) {
        guard matches(word) else {
            throw error("not a JSON value (true, false, null, a number, a string, an array or an object)")
        }
        position += word.utf8CodeUnitCount
    }

    /// Whether the bytes at the position are those of `word`.
    @inline(__always)
    private func matches(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count, let base = bytes.baseAddress else { return false }
        return memcmp(base + position, word.utf8Start, count) == 0
    }

    // MARK: - Strings and numbers

    /// The text of a string read into a `String` field (or element): where a reading of the same
    /// shape puts its new string (`JSONShape`).
    @inline(__always)
    mutating func readFieldString() throws(JSONSyntaxError) -> String {
        let (range, escaped) = try scanString()
        if recording { recorder.field(range) }
        let raw = UnsafeBufferPointer(rebasing: bytes[range])
        return escaped ? JSONStringScanner.unescape(raw) : String(decoding: raw, as: UTF8.self)
    }

    /// Notes, for the text's shape, that an array's element `index` is read next.
    @inline(__always)
    mutating func enterElement(_ index: Int) {
        if recording { recorder.enterElement(index) }
    }

    /// Notes that the element is read.
    @inline(__always)
    mutating func leaveElement() {
        if recording { recorder.leave() }
    }

    /// A string's text, escapes resolved: see `JSONStringScanner`.
    public mutating func readString() throws(JSONSyntaxError) -> String {
        let (range, escaped) = try scanString()
        let raw = UnsafeBufferPointer(rebasing: bytes[range])
        return escaped ? JSONStringScanner.unescape(raw) : String(decoding: raw, as: UTF8.self)
    }

    /// Whether the value at the position is the string `text`, read without making a `String`
    /// of it; nil if it is not a string.
    public mutating func read(equalTo text: StaticString) throws(JSONSyntaxError) -> Bool? {
        try startValue()
        guard current == Self.quote else {
            try skipValue()
            return nil
        }
        let (range, escaped) = try scanString()
        return text ~= JSONKey(UnsafeBufferPointer(rebasing: bytes[range]), escaped: escaped)
    }

    /// Checks the string at the position and moves past it: the bytes between its quotes, and
    /// whether they hold escapes.
    @inline(__always)
    mutating func scanString() throws(JSONSyntaxError) -> (range: Range<Int>, escaped: Bool) {
        var scanner = JSONStringScanner(bytes, at: position)
        guard let found = scanner.scan() else { throw stringError(from: position) }
        position = scanner.position
        return found
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, as a `Double` (`1e400` is infinity).
    mutating func readNumber() throws(JSONSyntaxError) -> Double {
        let start = position
        if try scanNumber() {
            // Up to 15 digits, no sign, fraction or exponent: exact as a Double, read directly.
            var value = 0
            for byte in UnsafeBufferPointer(rebasing: bytes[start..<position]) {
                value = value * 10 + Int(byte &- UInt8(ascii: "0"))
            }
            return Double(value)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        return Double(text) ?? 0  // the grammar above is a subset of what Double reads
    }

    /// Checks the number at the position and moves past it; true if it is a plain whole number
    /// of at most 15 digits.
    private mutating func scanNumber() throws(JSONSyntaxError) -> Bool {
        let start = position
        func digits(_ reader: inout JSONReader) -> Int {
            var count = 0
            while let byte = reader.current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                reader.position += 1
                count += 1
            }
            return count
        }
        var plain = true
        if current == UInt8(ascii: "-") {
            position += 1
            plain = false
        }
        if current == UInt8(ascii: "0") {
            position += 1
            if let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                throw error("a number with a leading zero")
            }
        } else if digits(&self) == 0 {
            throw error("a digit expected in a number")
        }
        if current == UInt8(ascii: ".") {
            position += 1
            plain = false
            guard digits(&self) > 0 else { throw error("a digit expected after the decimal point") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            plain = false
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard digits(&self) > 0 else { throw error("a digit expected in the exponent") }
        }
        return plain && position - start <= 15
    }

    // MARK: - Whitespace and errors

    @inline(__always)
    mutating func skipWhitespace() {
        // Compact JSON has none: one comparison settles nearly every call.
        while position < bytes.count, bytes[position] <= 0x20 {
            let byte = bytes[position]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            position += 1
        }
    }

    func error(_ problem: String, at offset: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(problem, at: offset ?? position, in: bytes)
    }

    /// What is wrong with the string that starts at `start`, and where.
    private func stringError(from start: Int) -> JSONSyntaxError {
        func isHex(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
                UInt8(ascii: "A")...UInt8(ascii: "F"):
                return true
            default: return false
            }
        }
        var index = start + 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == Self.quote { break }
            if byte < 0x20 {
                return error("a control character in a string (write it as an escape, e.g. \\n)", at: index)
            }
            if byte == UInt8(ascii: "\\") {
                let kind = index + 1 < bytes.count ? bytes[index + 1] : 0
                let simple = Array("\"\\/bfnrt".utf8)
                if simple.contains(kind) {
                    index += 2
                    continue
                }
                if kind == UInt8(ascii: "u"), index + 6 <= bytes.count,
                    (index + 2..<index + 6).allSatisfy({ isHex(bytes[$0]) })
                {
                    index += 6
                    continue
                }
                return error(
                    "an invalid escape in a string (\\u takes 4 hex digits; the others are \\\" \\\\ \\/ \\b \\f \\n \\r \\t)",
                    at: index)
            }
            index += 1
        }
        return error("a string that does not end (a \" is missing)", at: start)
    }

    private static func describe(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "'"): return "a single quote (strings take double quotes)"
        case UInt8(ascii: "/"): return "a comment (JSON has none)"
        case 0x21...0x7E: return "\"\(Character(Unicode.Scalar(byte)))\""
        default: return "byte 0x\(String(byte, radix: 16, uppercase: true))"
        }
    }
}

extension JSONReader: JSONFieldReader {
    @inline(__always)
    public mutating func read<Value: JSONReadable>(_ field: inout Value?) throws(JSONSyntaxError) {
        field = try read()
    }

    public mutating func read(_ field: inout Bool?, equalTo text: StaticString) throws(JSONSyntaxError) {
        field = try read(equalTo: text)
    }
}
