#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a `chat.completion.chunk` in its everyday shapes straight from the event's bytes,
/// without building a JSON tree, into a `PlainChunk`.
///
/// Why: a streamed answer is one chunk per token. `JSONDecoder` (FoundationEssentials) spent
/// about 73,000 instructions on each ~150-byte chunk, nearly all of it in Codable machinery
/// (keyed containers, generic metadata), which made decoding 70% of chat's work on a long
/// answer. This reader needs about a thousand, and makes no `String` but the delta's texts.
///
/// It reads what chat uses (`choices`, `object`) by the rules of `ChatCompletionChunkDTO`, and
/// checks every other member for valid JSON and skips it, whatever its type or value (`created`
/// as a float, `id` as a number, `null`s, extra fields). It is deliberately partial: it returns
/// nil for invalid JSON and for what is rare enough to leave to `ChatStreamDecoder.readInFull`
/// (`JSONParser`, by the same rules): a `usage` or `error` that is not null, a key of those it
/// reads that repeats or holds an escape, a used field of another type, an index that is not a
/// plain whole number, nesting deeper than 32. Tests, the property test and the fuzz target
/// check that the two paths and a plain reference agree. Strings read as `JSONStringScanner`
/// reads them: bytes that are not UTF-8 and lone surrogate escapes become U+FFFD. Standard
/// library only, and `memcmp`.
struct ChunkJSONReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    /// The string values met so far, in order, with the field each is (`.skip` for those chat
    /// does not use): what the chunk's shape is made of, and what the result is read from.
    private var holes: [ChunkShape.Hole] = []

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The chunk in `bytes` (UTF-8) and its shape, or nil when `JSONParser` should decide.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> (chunk: PlainChunk, shape: ChunkShape)? {
        var reader = ChunkJSONReader(bytes)
        guard reader.readChunk() else { return nil }
        reader.skipWhitespace()
        guard reader.position == bytes.count, let chunk = PlainChunk(bytes, holes: reader.holes) else {
            return nil
        }
        return (chunk, ChunkShape(bytes, holes: reader.holes))
    }

    /// The chunk in `text`, or nil when `JSONParser` should decide.
    static func chunk(_ text: String) -> PlainChunk? {
        var text = text
        return text.withUTF8 { read($0)?.chunk }
    }

    // MARK: - The chunk's objects

    /// The chunk's members chat reads; every other one is skipped, whatever it holds.
    private static let chunkKeys: [StaticString] = ["choices", "object", "usage", "error"]
    private static let choiceKeys: [StaticString] = ["index", "finish_reason", "delta"]
    private static let deltaKeys: [StaticString] = ["role", "content", "refusal", "reasoning_content", "reasoning"]
    private static let deltaFields: [ChunkShape.Field] = [.role, .content, .refusal, .reasoningContent, .reasoning]

    private mutating func readChunk() -> Bool {
        var choiceZeroSeen = false
        var object = Members()
        while let key = nextKey(Self.chunkKeys, &object) {
            let read: Bool
            switch key {
            case 0:  // choices
                if readNull() {
                    read = true
                    break
                }
                var array = Elements()
                while nextElement(&array) {
                    let first = holes.count
                    var index: Int?
                    guard readChoice(index: &index) else { return false }
                    if !choiceZeroSeen && (index ?? 0) == 0 {
                        choiceZeroSeen = true
                    } else {
                        // Only choice 0 counts: the texts of the others are not used.
                        for hole in first..<holes.count { holes[hole].field = .skip }
                    }
                }
                read = !array.failed
            case 1:  // object: only the string "error" means anything
                read = current == Self.quote ? readOptionalString(as: .object) : skipValue(depth: 1)
            case 2, 3:  // usage (once per answer, with nested details) and error: read in full
                read = readNull()
            default:
                read = skipUnknownValue(depth: 1)
            }
            guard read else { return false }
        }
        return !object.failed
    }

    /// A choice, its texts noted as holes; `index` gets its index (nil if it has none).
    private mutating func readChoice(index: inout Int?) -> Bool {
        var object = Members()
        while let key = nextKey(Self.choiceKeys, &object) {
            let read: Bool
            switch key {
            case 0: read = readOptionalInt(into: &index)
            case 1: read = readOptionalString(as: .finishReason)
            case 2: read = readNull() || readDelta()
            default: read = skipUnknownValue(depth: 3)
            }
            guard read else { return false }
        }
        return !object.failed
    }

    private mutating func readDelta() -> Bool {
        var object = Members()
        while let key = nextKey(Self.deltaKeys, &object) {
            let read =
                key < Self.deltaFields.count
                ? readOptionalString(as: Self.deltaFields[key]) : skipUnknownValue(depth: 4)
            guard read else { return false }
        }
        return !object.failed
    }

    /// A string (noted as a hole for `field`) or null; anything else fails, for `readInFull` to
    /// read (it leaves such a field out).
    private mutating func readOptionalString(as field: ChunkShape.Field) -> Bool {
        if readNull() { return true }
        guard let (range, escaped) = scanString() else { return false }
        holes.append(ChunkShape.Hole(range: range, escaped: escaped, field: field))
        return true
    }

    /// The value of a key chat does not use. A string is noted as a hole, so chunks that differ
    /// only in such a value (OpenAI's random `obfuscation`) keep the same shape.
    private mutating func skipUnknownValue(depth: Int) -> Bool {
        current == Self.quote ? readOptionalString(as: .skip) : skipValue(depth: depth)
    }

    // MARK: - JSON

    private static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
    private static let maxDepth = 32

    @inline(__always)
    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    @inline(__always)
    private mutating func skipWhitespace() {
        // Compact JSON has none: one comparison settles nearly every call.
        while position < bytes.count, bytes[position] <= 0x20 {
            let byte = bytes[position]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            position += 1
        }
    }

    @inline(__always)
    private mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard current == byte else { return false }
        position += 1
        return true
    }

    @inline(__always)
    private mutating func consumeLiteral(_ literal: StaticString) -> Bool {
        guard matches(position..<(position + literal.utf8CodeUnitCount), literal) else { return false }
        position += literal.utf8CodeUnitCount
        return true
    }

    /// Whether the input bytes in `range` are those of `literal` (false when past the end).
    @inline(__always)
    private func matches(_ range: Range<Int>, _ literal: StaticString) -> Bool {
        guard range.upperBound <= bytes.count, range.count == literal.utf8CodeUnitCount,
            let base = bytes.baseAddress
        else { return false }
        return memcmp(base + range.lowerBound, literal.utf8Start, range.count) == 0
    }

    /// The index in `keys` of the key whose bytes are in `range`, or nil.
    @inline(__always)
    private func index(ofKey range: Range<Int>, in keys: [StaticString]) -> Int? {
        for index in keys.indices where matches(range, keys[index]) { return index }
        return nil
    }

    /// Where the reading of one object stands (loops instead of closures: a closure per member
    /// cost more than the reading itself).
    private struct Members {
        var started = false
        var failed = false
        /// Bit `i` set: key `i` of the table came already.
        var seen: UInt64 = 0
    }

    /// Where the reading of one array stands.
    private struct Elements {
        var started = false
        var failed = false
    }

    /// Moves to the next member of an object (`{` first, then `,`) and reads its key: the key's
    /// index in `keys`, or `keys.count` for another key; nil at the closing `}`, and on a
    /// syntax error (then `members.failed`). A repeated known key fails (its last value counts,
    /// which `JSONParser` gives), as does a key with an escape (`JSONParser` unescapes it first).
    private mutating func nextKey(_ keys: [StaticString], _ members: inout Members) -> Int? {
        if !members.started {
            members.started = true
            guard consume(UInt8(ascii: "{")) else {
                members.failed = true
                return nil
            }
            if consume(UInt8(ascii: "}")) { return nil }
        } else if !consume(UInt8(ascii: ",")) {
            members.failed = !consume(UInt8(ascii: "}"))
            return nil
        }
        skipWhitespace()
        guard let key = readPlainKey(), consume(UInt8(ascii: ":")) else {
            members.failed = true
            return nil
        }
        let index = self.index(ofKey: key, in: keys) ?? keys.count
        if index < keys.count {
            guard members.seen & (1 << index) == 0 else {
                members.failed = true
                return nil
            }
            members.seen |= 1 << index
        }
        skipWhitespace()
        return index
    }

    /// Moves to the next element of an array (`[` first, then `,`): false at the closing `]`, and
    /// on a syntax error (then `elements.failed`).
    private mutating func nextElement(_ elements: inout Elements) -> Bool {
        if !elements.started {
            elements.started = true
            guard consume(UInt8(ascii: "[")) else {
                elements.failed = true
                return false
            }
            if consume(UInt8(ascii: "]")) { return false }
        } else if !consume(UInt8(ascii: ",")) {
            elements.failed = !consume(UInt8(ascii: "]"))
            return false
        }
        skipWhitespace()
        return true
    }

    @inline(__always)
    private mutating func readNull() -> Bool {
        skipWhitespace()
        return current == UInt8(ascii: "n") && consumeLiteral("null")
    }

    /// A plain whole number (no sign, fraction or exponent) that fits an `Int`, or null.
    private mutating func readOptionalInt(into field: inout Int?) -> Bool {
        if readNull() {
            field = nil
            return true
        }
        let start = position
        guard scanNumber() else { return false }
        var value = 0
        for byte in UnsafeBufferPointer(rebasing: bytes[start..<position]) {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return false }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !overflow1 && !overflow2 else { return false }
            value = sum
        }
        field = value
        return true
    }

    /// The byte range of a key without escapes.
    @inline(__always)
    private mutating func readPlainKey() -> Range<Int>? {
        guard current == Self.quote else { return nil }
        let start = position + 1
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == Self.quote {
                position = index + 1
                return start..<index
            }
            if byte == Self.backslash || byte < 0x20 { return nil }
            index += 1
        }
        return nil
    }

    /// Checks a string value and moves past it: see `JSONStringScanner.scan`.
    private mutating func scanString() -> (range: Range<Int>, escaped: Bool)? {
        var scanner = JSONStringScanner(bytes, at: position)
        let found = scanner.scan()
        position = scanner.position
        return found
    }

    /// A JSON number, checked against the grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func scanNumber() -> Bool {
        func digits(_ reader: inout ChunkJSONReader) -> Int {
            var count = 0
            while let byte = reader.current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                reader.position += 1
                count += 1
            }
            return count
        }
        if current == UInt8(ascii: "-") { position += 1 }
        if current == UInt8(ascii: "0") {
            position += 1
        } else if digits(&self) == 0 {
            return false
        }
        if current == UInt8(ascii: ".") {
            position += 1
            guard digits(&self) > 0 else { return false }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard digits(&self) > 0 else { return false }
        }
        return true
    }

    /// Skips any one JSON value, checking it is valid.
    private mutating func skipValue(depth: Int) -> Bool {
        guard depth < Self.maxDepth else { return false }
        skipWhitespace()
        switch current {
        case UInt8(ascii: "{"):
            position += 1
            if consume(UInt8(ascii: "}")) { return true }
            repeat {
                skipWhitespace()
                guard scanString() != nil, consume(UInt8(ascii: ":")), skipValue(depth: depth + 1) else { return false }
            } while consume(UInt8(ascii: ","))
            return consume(UInt8(ascii: "}"))
        case UInt8(ascii: "["):
            var array = Elements()
            while nextElement(&array) {
                guard skipValue(depth: depth + 1) else { return false }
            }
            return !array.failed
        case Self.quote:
            return scanString() != nil
        case UInt8(ascii: "t"):
            return consumeLiteral("true")
        case UInt8(ascii: "f"):
            return consumeLiteral("false")
        case UInt8(ascii: "n"):
            return consumeLiteral("null")
        default:
            return scanNumber()
        }
    }
}
