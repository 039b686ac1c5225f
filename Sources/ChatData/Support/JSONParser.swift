/// Reads JSON text into a `JSONValue`: strict about the syntax, lenient about meaning.
///
/// Strict: exactly RFC 8259's grammar (no trailing comma, comment, single quote, leading zero,
/// `NaN` or text after the value; only a leading UTF-8 byte order mark is skipped), and a syntax
/// error names its line and column. Lenient, as the OpenAI SDKs' parsers are: a key that appears
/// twice takes its last value; a lone or reversed surrogate escape (`"\ud800"`) is U+FFFD, as are
/// bytes that are not UTF-8. Nesting deeper than `maxDepth` is an error, never a crash.
///
/// The one JSON reader for what servers send when `ChunkJSONReader` leaves a chunk to it, for
/// whole answers, error bodies and model lists, and for the config file. Standard library only.
struct JSONParser {
    /// The deepest nesting read.
    static let maxDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The value `bytes` (UTF-8) hold.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes)
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { parser.position = 3 }
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw parser.error("text after the JSON value") }
        return value
    }

    /// The value `bytes` (UTF-8) hold.
    static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        let result: Result<JSONValue, JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(JSONSyntaxError) {
                return .success(try parse(buffer))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The value `text` holds.
    static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    // MARK: - Values

    private static let quote = UInt8(ascii: "\"")

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private func error(_ problem: String, at offset: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(problem, at: offset ?? position, in: bytes)
    }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    private mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth < Self.maxDepth else { throw error("nested more than \(Self.maxDepth) deep") }
        guard let byte = current else { throw error("the text ends where a value should be") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case Self.quote: return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("\(Self.describe(byte)) where a value should be")
        }
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        position += 1  // {
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            return .object([:])
        }
        // Room for a few members from the start: growing from empty resized a two-member
        // object (a saved conversation's message) twice.
        var members = [String: JSONValue](minimumCapacity: 4)
        while true {
            skipWhitespace()
            guard current == Self.quote else {
                if current == UInt8(ascii: "}") && !members.isEmpty { throw error("a comma before }") }
                throw error(current == nil ? "the text ends inside an object" : "a key in double quotes expected")
            }
            let key = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("a colon expected after the key \"\(key)\"") }
            position += 1
            skipWhitespace()
            members[key] = try value(depth: depth + 1)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return .object(members)
            case nil: throw error("the text ends inside an object (a } is missing)")
            default: throw error("a comma or } expected after the value of \"\(key)\"")
            }
        }
    }

    private mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        position += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            if current == UInt8(ascii: "]") { throw error("a comma before ]") }
            elements.append(try value(depth: depth + 1))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return .array(elements)
            case nil: throw error("the text ends inside an array (a ] is missing)")
            default: throw error("a comma or ] expected after an array element")
            }
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count,
            (0..<count).allSatisfy({ bytes[position + $0] == word.utf8Start[$0] })
        else { throw error("not a JSON value (true, false, null, a number, a string, an array or an object)") }
        position += count
        return value
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, as a `Double` (`1e400` is infinity).
    private mutating func number() throws(JSONSyntaxError) -> Double {
        let start = position
        func digits(_ parser: inout JSONParser) -> Int {
            var count = 0
            while let byte = parser.current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                parser.position += 1
                count += 1
            }
            return count
        }
        if current == UInt8(ascii: "-") { position += 1 }
        if current == UInt8(ascii: "0") {
            position += 1
            if let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                throw error("a number with a leading zero")
            }
        } else if digits(&self) == 0 {
            throw error("a digit expected in a number")
        }
        if current == UInt8(ascii: ".") {
            position += 1
            guard digits(&self) > 0 else { throw error("a digit expected after the decimal point") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard digits(&self) > 0 else { throw error("a digit expected in the exponent") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        return Double(text) ?? 0  // the grammar above is a subset of what Double reads
    }

    /// A string's text, escapes resolved: see `JSONStringScanner`.
    private mutating func string() throws(JSONSyntaxError) -> String {
        let start = position
        var scanner = JSONStringScanner(bytes, at: position)
        guard let (range, escaped) = scanner.scan() else {
            throw stringError(from: start)
        }
        position = scanner.position
        let raw = UnsafeBufferPointer(rebasing: bytes[range])
        return escaped ? JSONStringScanner.unescape(raw) : String(decoding: raw, as: UTF8.self)
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
