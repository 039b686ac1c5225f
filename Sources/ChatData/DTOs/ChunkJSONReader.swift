/// Reads a `chat.completion.chunk` in its everyday shapes without `JSONDecoder`.
///
/// Why: a streamed answer is one chunk per token, and `JSONDecoder` (FoundationEssentials) spent
/// about 73,000 instructions on each ~150-byte chunk, nearly all of it in Codable machinery
/// (keyed containers, generic metadata), which made decoding 70% of chat's work on a long answer.
/// This reader needs a few thousand.
///
/// It is deliberately partial, and strict: it returns nil for anything outside the plain shape
/// (invalid JSON, a `usage` or `error` object, a repeated or escaped key, a value of another type
/// than the DTO's, a number that is not a plain whole number, an escape that does not make valid
/// text, nesting deeper than 32). The caller then decodes with `JSONDecoder` as before, so every
/// unusual chunk is treated exactly as it always was; tests check that the two agree.
/// Standard library only.
struct ChunkJSONReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The chunk in `text`, or nil when `JSONDecoder` should decide.
    static func chunk(_ text: String) -> ChatCompletionChunkDTO? {
        var text = text
        return text.withUTF8 { buffer in
            var reader = ChunkJSONReader(buffer)
            guard let chunk = reader.readChunk() else { return nil }
            reader.skipWhitespace()
            return reader.position == buffer.count ? chunk : nil
        }
    }

    // MARK: - The DTO's objects

    private mutating func readChunk() -> ChatCompletionChunkDTO? {
        var chunk = ChatCompletionChunkDTO()
        let keys: [StaticString] = [
            "id", "object", "created", "model", "system_fingerprint", "choices", "usage", "error",
        ]
        let done = readObject(keys) { reader, key in
            switch key {
            case 0: return reader.readOptionalString(into: &chunk.id)
            case 1: return reader.readOptionalString(into: &chunk.object)
            case 2: return reader.readOptionalInt(into: &chunk.created)
            case 3: return reader.readOptionalString(into: &chunk.model)
            case 4: return reader.readOptionalString(into: &chunk.system_fingerprint)
            case 5:
                if reader.readNull() { return true }
                var choices: [ChatCompletionChunkDTO.ChoiceDTO] = []
                let read = reader.readArray { reader in
                    guard let choice = reader.readChoice() else { return false }
                    choices.append(choice)
                    return true
                }
                chunk.choices = choices
                return read
            case 6:
                // Once per answer, with nested details: JSONDecoder's job.
                return reader.readNull()
            case 7:
                return false
            default:
                return reader.skipValue(depth: 1)
            }
        }
        return done ? chunk : nil
    }

    private mutating func readChoice() -> ChatCompletionChunkDTO.ChoiceDTO? {
        var choice = ChatCompletionChunkDTO.ChoiceDTO()
        let keys: [StaticString] = ["index", "finish_reason", "delta"]
        let done = readObject(keys) { reader, key in
            switch key {
            case 0: return reader.readOptionalInt(into: &choice.index)
            case 1: return reader.readOptionalString(into: &choice.finish_reason)
            case 2:
                if reader.readNull() { return true }
                guard let delta = reader.readDelta() else { return false }
                choice.delta = delta
                return true
            default:
                return reader.skipValue(depth: 3)
            }
        }
        return done ? choice : nil
    }

    private mutating func readDelta() -> ChatCompletionChunkDTO.DeltaDTO? {
        var delta = ChatCompletionChunkDTO.DeltaDTO()
        let keys: [StaticString] = ["role", "content", "refusal", "reasoning_content", "reasoning"]
        let done = readObject(keys) { reader, key in
            switch key {
            case 0: return reader.readOptionalString(into: &delta.role)
            case 1: return reader.readOptionalString(into: &delta.content)
            case 2: return reader.readOptionalString(into: &delta.refusal)
            case 3: return reader.readOptionalString(into: &delta.reasoning_content)
            case 4: return reader.readOptionalString(into: &delta.reasoning)
            default: return reader.skipValue(depth: 4)
            }
        }
        return done ? delta : nil
    }

    // MARK: - JSON

    private static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
    private static let maxDepth = 32

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            position += 1
        }
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard current == byte else { return false }
        position += 1
        return true
    }

    private mutating func consumeLiteral(_ literal: StaticString) -> Bool {
        guard matches(position..<(position + literal.utf8CodeUnitCount), literal) else { return false }
        position += literal.utf8CodeUnitCount
        return true
    }

    /// Whether the input bytes in `range` are those of `literal` (false when past the end).
    private func matches(_ range: Range<Int>, _ literal: StaticString) -> Bool {
        guard range.upperBound <= bytes.count, range.count == literal.utf8CodeUnitCount else { return false }
        let text = literal.utf8Start
        for offset in 0..<range.count where bytes[range.lowerBound + offset] != text[offset] {
            return false
        }
        return true
    }

    /// `{ "key": value, … }`, calling `member` with the reader at each value and the key's index
    /// in `keys`, or nil for another key. A repeated known key fails, as does a key with an
    /// escape (JSONDecoder would unescape it first).
    private mutating func readObject(_ keys: [StaticString], _ member: (inout ChunkJSONReader, Int?) -> Bool) -> Bool {
        guard consume(UInt8(ascii: "{")) else { return false }
        if consume(UInt8(ascii: "}")) { return true }
        var seen: UInt64 = 0
        repeat {
            skipWhitespace()
            guard let key = readPlainKey(), consume(UInt8(ascii: ":")) else { return false }
            let index = keys.firstIndex { matches(key, $0) }
            if let index {
                guard seen & (1 << index) == 0 else { return false }
                seen |= 1 << index
            }
            skipWhitespace()
            guard member(&self, index) else { return false }
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "}"))
    }

    /// `[ value, … ]`, calling `element` with the reader at each value.
    private mutating func readArray(_ element: (inout ChunkJSONReader) -> Bool) -> Bool {
        guard consume(UInt8(ascii: "[")) else { return false }
        if consume(UInt8(ascii: "]")) { return true }
        repeat {
            skipWhitespace()
            guard element(&self) else { return false }
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "]"))
    }

    private mutating func readNull() -> Bool {
        skipWhitespace()
        return current == UInt8(ascii: "n") && consumeLiteral("null")
    }

    /// A string or null; anything else fails (JSONDecoder would throw a type mismatch).
    private mutating func readOptionalString(into field: inout String?) -> Bool {
        if readNull() {
            field = nil
            return true
        }
        guard let text = readString() else { return false }
        field = text
        return true
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

    /// A string value, unescaped. The input came from a `String`, so it is valid UTF-8.
    private mutating func readString() -> String? {
        guard current == Self.quote else { return nil }
        position += 1
        let start = position
        // Fast path: no escapes.
        while let byte = current, byte != Self.quote, byte != Self.backslash {
            if byte < 0x20 { return nil }
            position += 1
        }
        guard let stop = current else { return nil }
        if stop == Self.quote {
            position += 1
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(position - 1)]), as: UTF8.self)
        }
        var text = Array(UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while let byte = current {
            position += 1
            switch byte {
            case Self.quote:
                return String(decoding: text, as: UTF8.self)
            case Self.backslash:
                guard let escaped = current else { return nil }
                position += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escaped)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = readUnicodeEscape() else { return nil }
                    text.append(contentsOf: String(Character(scalar)).utf8)
                default:
                    return nil
                }
            default:
                if byte < 0x20 { return nil }
                text.append(byte)
            }
        }
        return nil
    }

    /// The scalar of a `\uXXXX` escape (the `\u` already read), joining a surrogate pair; nil
    /// for a lone surrogate.
    private mutating func readUnicodeEscape() -> Unicode.Scalar? {
        guard let high = readHex4() else { return nil }
        if (0xD800...0xDBFF).contains(high) {
            guard consumeLiteral("\\u"), let low = readHex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        }
        return Unicode.Scalar(high)  // nil for a lone low surrogate
    }

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
                guard readString() != nil, consume(UInt8(ascii: ":")), skipValue(depth: depth + 1) else { return false }
            } while consume(UInt8(ascii: ","))
            return consume(UInt8(ascii: "}"))
        case UInt8(ascii: "["):
            return readArray { reader in reader.skipValue(depth: depth + 1) }
        case Self.quote:
            return readString() != nil
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
