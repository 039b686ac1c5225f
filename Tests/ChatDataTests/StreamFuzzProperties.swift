import ChatDomain

@testable import ChatHTTP
@testable import ChatJSON
@testable import ChatProviders

/// The properties of the event-stream parser and chunk decoder that random inputs check: shared
/// by `StreamFuzzTests` (seeded inputs, in `swift test`) and the libFuzzer target in `Fuzz/`
/// (which links this file), so both check exactly the same thing.
enum StreamProperties {
    /// What is wrong with how `input` is read: nothing (empty) when fed whole, byte by byte (when
    /// short), at random cuts drawn from `random`, and cut after every CR and 0xEF the outcome is
    /// the same; the parser agrees with `ReferenceSSE`; every event's data is read alike both
    /// ways `JSONReader` reads — `JSONParser` agrees with `ReferenceJSON`, the decoder's reading
    /// of a chunk (`ChatStreamDecoder.withChunk`) with `ReferenceChunk`, and through the last
    /// chunk's `JSONShape` as in full; and the decoder throws
    /// only `ChatError.streamError` or `.malformedResponse`.
    static func violations(_ input: [UInt8], random: inout SplitMix64) -> [String] {
        var problems: [String] = []
        let whole = StreamOutcome(input, cuts: [])
        let reference = ReferenceSSE.events(input)
        if whole.sse != reference {
            problems.append("parser \(whole.sse.prefix(5)) differs from the reference \(reference.prefix(5))")
        }
        if let error = whole.error, !error.isStreamDecodingError {
            problems.append("the decoder threw \(error), which is not a stream or format error")
        }
        if let foreign = whole.foreignError { problems.append("not a ChatError: \(foreign)") }

        // Each event's data as the decoder sees it: raw bytes, whitespace around trimmed.
        var datas: [[UInt8]] = []
        var parser = SSEParser()
        parser.push(input) { event in datas.append(Array(event.data).trimmedJSONWhitespace) }
        parser.finish()
        var shape: JSONShape<ChatCompletionDTO>?
        for data in datas {
            problems += chunkViolations(data, shape: &shape)
        }

        var splits: [[Int]] = []
        if input.count <= 256 && !input.isEmpty { splits.append(Array(1..<input.count)) }
        for _ in 0..<3 {
            let count = random.below(9) + 1
            splits.append((0..<count).map { _ in random.below(input.count + 1) }.sorted())
        }
        // Every CR and every 0xEF ends a piece, so CRLF and a BOM straddle pushes.
        splits.append(input.indices.filter { input[$0] == 0x0D || input[$0] == 0xEF }.map { $0 + 1 })
        for cuts in splits {
            let split = StreamOutcome(input, cuts: cuts)
            if split != whole {
                problems.append("split at \(cuts.prefix(20)) gives \(split); whole gives \(whole)")
                break
            }
        }
        return problems
    }
}

extension StreamProperties {
    /// What is wrong with how one event's `data` is read, as any JSON and as a chunk, in full and
    /// through `shape` (the shape of the last chunk read in full, as the decoder keeps it).
    static func chunkViolations(_ data: [UInt8], shape: inout JSONShape<ChatCompletionDTO>?) -> [String] {
        var problems: [String] = []
        let shown = String(decoding: data, as: UTF8.self).excerpt()
        let parsed = try? JSONParser.parse(data)
        let referenceTree = ReferenceJSON.parse(data)
        if parsed != referenceTree {
            problems.append(
                "JSONParser read \(shown) as \(String(describing: parsed)), the reference as \(String(describing: referenceTree))"
            )
        }
        let expected = ReferenceChunk.read(data)
        let full = try? ChatStreamDecoder.chunk(in: data)
        let read = full.map(ReferenceChunk.reading(of:)) ?? .notAChunk
        if read != expected {
            problems.append("the decoder read \(shown) as \(read), the reference as \(expected)")
        }
        data.withUnsafeBufferPointer { bytes in
            let viaShape = shape?.read(bytes) { $0 }
            if let viaShape, viaShape != full {
                problems.append("the last chunk's shape read \(shown) unlike the full reading")
            }
            if viaShape == nil, let next = try? JSONShape<ChatCompletionDTO>.reading(bytes).1 { shape = next }
        }
        return problems
    }
}

extension ChatStreamDecoder {
    /// The chunk in `data`, read in full, as the decoder reads an event's data.
    static func chunk(in data: [UInt8]) throws(ChatError) -> ChatCompletionDTO {
        var shape: JSONShape<ChatCompletionDTO>?
        let result: Result<ChatCompletionDTO, ChatError> = data.withUnsafeBufferPointer { bytes in
            do throws(ChatError) {
                return .success(try withChunk(in: bytes, shape: &shape) { $0 })
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

extension Array where Element == UInt8 {
    /// Without the spaces, tabs, CRs and LFs around it, as the decoder trims an event's data.
    var trimmedJSONWhitespace: [UInt8] {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return []
        }
        return Array(self[first...last])
    }
}

/// JSON read the plain way, as RFC 8259 words it, with chat's two lenient rules: a key that
/// appears twice takes its last value; a `\u` escape that is not part of a surrogate pair is
/// U+FFFD (the standard library's UTF-16 decoding), as are bytes that are not UTF-8. One leading
/// BOM is skipped; values nested `JSONParser.maxDepth` deep are refused. Written for clarity,
/// not speed, and apart from `JSONParser` and `JSONStringScanner`, so the three agree only if
/// each is right.
enum ReferenceJSON {
    static func parse(_ bytes: [UInt8]) -> JSONValue? {
        var input = bytes[...]
        if input.starts(with: [0xEF, 0xBB, 0xBF]) { input = input.dropFirst(3) }
        var reader = Reader(rest: input)
        guard let value = reader.value(depth: 0) else { return nil }
        reader.skipSpace()
        return reader.rest.isEmpty ? value : nil
    }

    private struct Reader {
        var rest: ArraySlice<UInt8>

        mutating func skipSpace() {
            while let byte = rest.first, [0x20, 0x0A, 0x0D, 0x09].contains(byte) { rest = rest.dropFirst() }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard rest.first == byte else { return false }
            rest = rest.dropFirst()
            return true
        }

        mutating func value(depth: Int) -> JSONValue? {
            skipSpace()
            guard depth < JSONParser.maxDepth, let first = rest.first else { return nil }
            for (word, value) in [("true", JSONValue.bool(true)), ("false", .bool(false)), ("null", .null)]
            where rest.starts(with: Array(word.utf8)) {
                rest = rest.dropFirst(word.utf8.count)
                return value
            }
            switch first {
            case UInt8(ascii: "{"):
                rest = rest.dropFirst()
                var members: [String: JSONValue] = [:]
                if take(UInt8(ascii: "}")) { return .object(members) }
                repeat {
                    skipSpace()
                    guard let key = string(), take(UInt8(ascii: ":")), let value = value(depth: depth + 1) else {
                        return nil
                    }
                    members[key] = value  // the last value of a repeated key
                } while take(UInt8(ascii: ","))
                return take(UInt8(ascii: "}")) ? .object(members) : nil
            case UInt8(ascii: "["):
                rest = rest.dropFirst()
                var elements: [JSONValue] = []
                if take(UInt8(ascii: "]")) { return .array(elements) }
                repeat {
                    guard let value = value(depth: depth + 1) else { return nil }
                    elements.append(value)
                } while take(UInt8(ascii: ","))
                return take(UInt8(ascii: "]")) ? .array(elements) : nil
            case UInt8(ascii: "\""):
                return string().map(JSONValue.string)
            default:
                return number().map(JSONValue.number)
            }
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
        mutating func number() -> Double? {
            var text = ""
            func digits(_ reader: inout Reader) -> String {
                let run = reader.rest.prefix { (0x30...0x39).contains($0) }
                reader.rest = reader.rest.dropFirst(run.count)
                return String(decoding: run, as: UTF8.self)
            }
            if rest.first == UInt8(ascii: "-") {
                text += "-"
                rest = rest.dropFirst()
            }
            let whole = digits(&self)
            guard !whole.isEmpty, whole == "0" || !whole.hasPrefix("0") else { return nil }
            text += whole
            if rest.first == UInt8(ascii: ".") {
                rest = rest.dropFirst()
                let fraction = digits(&self)
                guard !fraction.isEmpty else { return nil }
                text += "." + fraction
            }
            if let e = rest.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
                rest = rest.dropFirst()
                text += "e"
                if let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                    text += String(UnicodeScalar(sign))
                    rest = rest.dropFirst()
                }
                let exponent = digits(&self)
                guard !exponent.isEmpty else { return nil }
                text += exponent
            }
            return Double(text)
        }

        /// A string: raw runs decoded as UTF-8, runs of `\u` escapes as UTF-16, both with U+FFFD
        /// for what does not decode.
        mutating func string() -> String? {
            guard rest.first == UInt8(ascii: "\"") else { return nil }
            rest = rest.dropFirst()
            var text = ""
            var raw: [UInt8] = []
            var units: [UInt16] = []
            func flush() {
                text += String(decoding: raw, as: UTF8.self) + String(decoding: units, as: UTF16.self)
                raw = []
                units = []
            }
            while let byte = rest.first {
                rest = rest.dropFirst()
                switch byte {
                case UInt8(ascii: "\""):
                    flush()
                    return text
                case UInt8(ascii: "\\"):
                    guard let kind = rest.first else { return nil }
                    rest = rest.dropFirst()
                    if kind == UInt8(ascii: "u") {
                        guard rest.count >= 4,
                            let unit = UInt16(String(decoding: rest.prefix(4), as: UTF8.self), radix: 16),
                            rest.prefix(4).allSatisfy({ UInt8(ascii: "+") != $0 && UInt8(ascii: "-") != $0 })
                        else { return nil }
                        rest = rest.dropFirst(4)
                        if !raw.isEmpty { flush() }
                        units.append(unit)
                        continue
                    }
                    let simple: [UInt8: UInt8] = [
                        UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F,
                        UInt8(ascii: "b"): 0x08,
                        UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D,
                        UInt8(ascii: "t"): 0x09,
                    ]
                    guard let resolved = simple[kind] else { return nil }
                    if !units.isEmpty { flush() }
                    raw.append(resolved)
                case 0x00..<0x20:
                    return nil
                default:
                    if !units.isEmpty { flush() }
                    raw.append(byte)
                }
            }
            return nil
        }
    }
}

/// What chat uses of an event's data, by the rules as the issue words them, read from
/// `ReferenceJSON`'s tree: an `error` that is an object or a string, or `"object": "error"`,
/// is the server's error (its `message` if a string, else its `type` if a string, else "no
/// message"); otherwise choice 0 is the first object in `choices` (if an array) whose `index` is
/// 0 or not a number, with the texts of its `delta` (if an object) that are strings, its tool
/// calls (those that are objects, in an array), and its `finish_reason` if a string; and `usage`
/// (if an object) gives the counts that are whole numbers. Everything else is ignored.
enum ReferenceChunk {
    enum Reading: Equatable {
        case notAChunk
        case error(String)
        case chunk(delta: MessageDTO, finishReason: String?, usage: UsageDTO?)
    }

    /// What the decoder's reading of a chunk amounts to, to compare with `read`.
    static func reading(of chunk: ChatCompletionDTO) -> Reading {
        if let error = chunk.error.summary() { return .error(error.message) }
        let choice = chunk.choices?.first { ($0.index ?? 0) == 0 }
        return .chunk(delta: choice?.delta ?? MessageDTO(), finishReason: choice?.finish_reason, usage: chunk.usage)
    }

    static func read(_ data: [UInt8]) -> Reading {
        guard case .object(let members)? = ReferenceJSON.parse(data) else { return .notAChunk }
        func message(_ object: [String: JSONValue]) -> String {
            text(object["message"]) ?? text(object["type"]) ?? "no message"
        }
        switch members["error"] {
        case .object(let error)?: return .error(message(error))
        case .string(let error)?: return .error(error)
        default: if text(members["object"]) == "error" { return .error(message(members)) }
        }
        var delta = MessageDTO()
        var finishReason: String?
        if case .array(let choices)? = members["choices"] {
            for case .object(let choice) in choices {
                if case .number(let index)? = choice["index"], index != 0 { continue }
                if case .object(let fields)? = choice["delta"] { delta = Self.delta(fields) }
                finishReason = text(choice["finish_reason"])
                break
            }
        }
        var usage: UsageDTO?
        if case .object(let counts)? = members["usage"] {
            usage = UsageDTO(
                prompt_tokens: whole(counts["prompt_tokens"]), completion_tokens: whole(counts["completion_tokens"]),
                total_tokens: whole(counts["total_tokens"]))
        }
        return .chunk(delta: delta, finishReason: finishReason, usage: usage)
    }

    private static func text(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    private static func whole(_ value: JSONValue?) -> Int? {
        guard case .number(let number)? = value, number == number.rounded(), abs(number) < 9.0e18 else { return nil }
        return Int(number)
    }

    private static func delta(_ fields: [String: JSONValue]) -> MessageDTO {
        var calls: [ToolCallDTO]?
        if case .array(let elements)? = fields["tool_calls"] {
            calls = elements.compactMap { element in
                guard case .object(let call) = element else { return nil }
                var function: ToolCallDTO.FunctionDTO?
                if case .object(let named)? = call["function"] {
                    function = .init(name: text(named["name"]), arguments: text(named["arguments"]))
                }
                return ToolCallDTO(
                    index: whole(call["index"]), id: text(call["id"]), type: text(call["type"]), function: function)
            }
        }
        return MessageDTO(
            role: text(fields["role"]), content: text(fields["content"]), refusal: text(fields["refusal"]),
            reasoning_content: text(fields["reasoning_content"]), reasoning: text(fields["reasoning"]),
            tool_calls: calls)
    }
}

/// Everything observable from feeding one input in pieces.
struct StreamOutcome: Equatable, CustomStringConvertible {
    /// Every event the parser dispatched, fed the whole input.
    var sse: [SSEEvent] = []
    /// The decoder's events up to its first error (the repository stops there).
    var chat: [ChatEvent] = []
    var error: ChatError?
    /// Something other than a `ChatError` came out of the decoder.
    var foreignError: String?
    var done = false
    var complete = false

    /// Feeds `input` cut at `cuts` (sorted offsets; repeats make empty pieces).
    init(_ input: [UInt8], cuts: [Int]) {
        var pieces: [ArraySlice<UInt8>] = []
        var start = 0
        for cut in cuts + [input.count] {
            let end = min(max(cut, start), input.count)
            pieces.append(input[start..<end])
            start = end
        }

        var parser = SSEParser()
        for piece in pieces { sse += parser.push(piece) }
        parser.finish()

        var streamParser = SSEParser()
        var decoder = ChatStreamDecoder()
        var chat: [ChatEvent] = []
        for piece in pieces {
            do {
                try streamParser.push(piece) { event in try decoder.decode(event) { chat.append($0) } }
            } catch let failure as ChatError {
                error = failure
                break
            } catch {
                foreignError = String(describing: error)
                break
            }
            if decoder.isDone { break }
        }
        streamParser.finish()
        self.chat = chat
        done = decoder.isDone
        complete = decoder.isComplete
    }

    var description: String {
        "\(sse.count) events, chat \(chat.prefix(6)), error \(String(describing: error)), done \(done), complete \(complete)"
    }
}

extension ChatError {
    /// The only errors a stream decoder may throw.
    var isStreamDecodingError: Bool {
        switch self {
        case .streamError, .malformedResponse: return true
        default: return false
        }
    }
}

/// The event-stream format read the plain way, as the spec words it, over the whole input:
/// one leading BOM dropped; lines end at CRLF, LF or CR; an unterminated last line is dropped;
/// with `SSEParser`'s documented differences (`id` per event, a legacy `error:` field).
enum ReferenceSSE {
    static func events(_ input: [UInt8]) -> [SSEEvent] {
        var bytes = input[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        var lines: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let byte = bytes[i]
            if byte == 0x0A || byte == 0x0D {
                lines.append(bytes[start..<i])
                if byte == 0x0D && i + 1 < bytes.endIndex && bytes[i + 1] == 0x0A { i += 1 }
                start = i + 1
            }
            i += 1
        }
        var events: [SSEEvent] = []
        var data: [UInt8]?
        var type = ""
        var id: String?
        var legacyError: String?
        for line in lines {
            if line.isEmpty {
                if data != nil || legacyError != nil {
                    var joined = data ?? []
                    if joined.last == 0x0A { joined.removeLast() }
                    events.append(
                        SSEEvent(
                            type: type.isEmpty ? "message" : type, data: String(decoding: joined, as: UTF8.self),
                            id: id, legacyError: legacyError))
                }
                (data, type, id, legacyError) = (nil, "", nil, nil)
                continue
            }
            if line.first == 0x3A { continue }
            let colon = line.firstIndex(of: 0x3A)
            let name = String(decoding: line[..<(colon ?? line.endIndex)], as: UTF8.self)
            var value = colon.map { line[($0 + 1)...] } ?? []
            if value.first == 0x20 { value = value.dropFirst() }
            switch name {
            case "data": data = (data ?? []) + value + [0x0A]
            case "event": type = String(decoding: value, as: UTF8.self)
            case "id" where !value.contains(0): id = String(decoding: value, as: UTF8.self)
            case "error": legacyError = String(decoding: value, as: UTF8.self)
            default: break
            }
        }
        return events
    }
}

/// SplitMix64 (Steele, Lea and Flood), as in `java.util.SplittableRandom`: tiny, fast and the
/// same everywhere, so a seed reproduces its input on any machine.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (0 when `bound` is 0); the modulo bias is irrelevant here.
    mutating func below(_ bound: Int) -> Int {
        bound <= 0 ? 0 : Int(next() % UInt64(bound))
    }

    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    mutating func pick<T>(_ options: [T]) -> T { options[below(options.count)] }
}
