import ChatJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Incremental parser for the WHATWG `text/event-stream` format over raw bytes.
///
/// Feed bytes as they arrive with `push`; complete events are handed to `emit`.
/// Differences from the spec, on purpose:
/// - `id` is per event (reset at every blank line); there is no last-event-id persistence.
/// - A non-standard `error:` field is kept as `legacyError`, and an event carrying one is
///   dispatched even when it has no data (legacy llama.cpp sends `error: {...}`).
///
/// Work is linear in the bytes received: only newly pushed bytes are scanned for line ends; a
/// line that arrived whole is read where it lies (only one split across pushes is copied), and
/// an event's data reaches `emit` as bytes, never decoded here. An event of one `data:` line
/// that arrived whole with its blank line (nearly every event) reaches `emit` where it lies too.
/// Standard library and two C calls (`memchr`, `memcmp`): no Foundation.
public struct SSEParser {
    private static let lf: UInt8 = 0x0A
    private static let cr: UInt8 = 0x0D
    private static let colon: UInt8 = 0x3A
    private static let space: UInt8 = 0x20
    private static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    /// Above this, the line buffer gives its storage back after each line.
    private static let keptLineCapacity = 64 * 1024

    /// How many bytes of a leading BOM have been matched; nil once the stream start is settled.
    private var bomMatched: Int? = 0
    /// The previous push ended with a CR: an LF at the start of the next one belongs to it.
    private var sawCR = false
    /// Bytes of the current, not yet terminated line.
    private var line: [UInt8] = []
    /// Data buffer: each `data:` value followed by LF, still as UTF-8.
    private var data: [UInt8] = []
    /// The event's first `data:` value, where it lies in the bytes `consume` is reading, while
    /// it is the only one; copied into `data` (`keepLent`) before those bytes go away.
    private var lent: UnsafeBufferPointer<UInt8>?
    private var type = ""
    /// The event types seen so far (at most `knownTypeLimit`), each made into a string once,
    /// the last one used first.
    private var knownTypes: [(bytes: [UInt8], string: String)] = []
    private static let knownTypeLimit = 16
    private var id: String?
    private var legacyError: String?

    /// A parser at the start of a stream.
    public init() {}

    /// Feeds the next bytes as they arrived from the network; calls `emit` for each complete
    /// event, whose data bytes are valid only during that call.
    ///
    /// If `emit` throws, the error propagates and the rest of these bytes is dropped.
    public mutating func push<Bytes: Collection>(
        _ bytes: Bytes,
        _ emit: (RawSSEEvent) throws -> Void
    ) rethrows where Bytes.Element == UInt8 {
        let handled: Void? = try bytes.withContiguousStorageIfAvailable { buffer in
            try consume(buffer, emit)
        }
        if handled == nil {
            try Array(bytes).withUnsafeBufferPointer { buffer in
                try consume(buffer, emit)
            }
        }
    }

    /// Convenience for tests and small callers: the events as owned copies.
    mutating func push<Bytes: Collection>(_ bytes: Bytes) -> [SSEEvent] where Bytes.Element == UInt8 {
        var events: [SSEEvent] = []
        push(bytes) { events.append(SSEEvent($0)) }
        return events
    }

    /// End of stream: an unterminated event (and a partial last line) is discarded, not dispatched.
    /// Resets the parser, so it can read a new stream.
    mutating func finish() {
        self = SSEParser()
    }

    // MARK: - Bytes to lines

    private mutating func consume(
        _ buffer: UnsafeBufferPointer<UInt8>,
        _ emit: (RawSSEEvent) throws -> Void
    ) rethrows {
        defer { keepLent() }
        var i = buffer.startIndex
        let end = buffer.endIndex
        if let matched = bomMatched {
            i = skipBOM(buffer, alreadyMatched: matched)
            if bomMatched != nil { return }  // still undecided: the whole push was a BOM prefix
        }
        while i < end {
            if sawCR {
                sawCR = false
                if buffer[i] == Self.lf {
                    i += 1
                    continue
                }
            }
            let j = Self.lineEnd(in: buffer, from: i)
            if j == end {
                line.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[i..<j]))
                break
            }
            sawCR = buffer[j] == Self.cr
            if line.isEmpty {
                // The whole line is in this push (nearly always): read it where it lies.
                try processLine(UnsafeBufferPointer(rebasing: buffer[i..<j]), emit)
            } else {
                // The end of a line that began in an earlier push. Taken out of `self` first, so
                // reading it while `processLine` changes the parser is not an overlapping access.
                var whole: [UInt8] = []
                swap(&whole, &line)
                whole.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[i..<j]))
                try whole.withUnsafeBufferPointer {
                    try processLine($0, emit)
                    keepLent()
                }
                if whole.capacity <= Self.keptLineCapacity {
                    whole.removeAll(keepingCapacity: true)
                    line = whole
                }
            }
            i = j + 1
        }
    }

    /// The index of the first CR or LF at or after `start`, or the buffer's end.
    ///
    /// Two `memchr` calls (vectorised in the C library): this scan touches every byte of the
    /// stream, and a byte-by-byte loop here was a fifth of the decoding work on a long answer.
    private static func lineEnd(in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = buffer.baseAddress, start < buffer.endIndex else { return buffer.endIndex }
        let first = base + start
        var end = buffer.endIndex
        if let found = memchr(first, Int32(lf), end - start) {
            end = start + (UnsafeRawPointer(found) - UnsafeRawPointer(first))
        }
        // Servers end lines with LF; a CR is looked for only before the LF found.
        if end > start, let found = memchr(first, Int32(cr), end - start) {
            end = start + (UnsafeRawPointer(found) - UnsafeRawPointer(first))
        }
        return end
    }

    /// Matches the stream's leading BOM, possibly split across pushes. Returns where line bytes
    /// start. Sets `bomMatched` to nil once decided; on a mismatch the matched prefix goes back
    /// into the line (it is ordinary text then).
    private mutating func skipBOM(_ buffer: UnsafeBufferPointer<UInt8>, alreadyMatched: Int) -> Int {
        let bom = Self.bom
        var matched = alreadyMatched
        var i = buffer.startIndex
        while i < buffer.endIndex {
            if buffer[i] != bom[matched] {
                line.append(contentsOf: bom[0..<matched])
                bomMatched = nil
                return i
            }
            matched += 1
            i += 1
            if matched == bom.count {
                bomMatched = nil
                return i
            }
        }
        bomMatched = matched
        return i
    }

    // MARK: - Lines to events

    private mutating func processLine(_ line: UnsafeBufferPointer<UInt8>, _ emit: (RawSSEEvent) throws -> Void)
        rethrows
    {
        guard let first = line.first else {
            try dispatch(emit)
            return
        }
        if first == Self.colon { return }  // comment

        let field: UnsafeBufferPointer<UInt8>
        var value: UnsafeBufferPointer<UInt8>
        if let colon = line.firstIndex(of: Self.colon) {
            field = UnsafeBufferPointer(rebasing: line[..<colon])
            var start = colon + 1
            if start < line.endIndex && line[start] == Self.space { start += 1 }
            value = UnsafeBufferPointer(rebasing: line[start...])
        } else {
            field = line
            value = UnsafeBufferPointer(start: nil, count: 0)
        }

        // UTF-8 never uses ASCII bytes inside multi-byte sequences, so comparing the raw field
        // bytes is the same as comparing the decoded name (a stray BOM or invalid byte simply
        // makes the field unknown, as the spec wants).
        if field.hasBytes(of: "data") {
            if data.isEmpty && lent == nil {
                lent = value
            } else {
                keepLent()
                data.append(contentsOf: value)
                data.append(Self.lf)
            }
        } else if field.hasBytes(of: "event") {
            // Most events repeat the type of one before (Anthropic's `content_block_delta`):
            // the string made for it then serves again, with no new one made.
            type = knownType(value)
        } else if field.hasBytes(of: "id") {
            if !value.contains(0) { id = String(decoding: value, as: UTF8.self) }
        } else if field.hasBytes(of: "error") {
            legacyError = String(decoding: value, as: UTF8.self)
        }
        // `retry` and unknown fields are ignored.
    }

    /// The string of event type `value`: the one made for it before, if any.
    private mutating func knownType(_ value: UnsafeBufferPointer<UInt8>) -> String {
        for index in knownTypes.indices {
            let matches = knownTypes[index].bytes.withUnsafeBufferPointer { known in
                known.count == value.count
                    && (known.isEmpty || memcmp(known.baseAddress!, value.baseAddress!, known.count) == 0)
            }
            guard matches else { continue }
            if index > 0 { knownTypes.swapAt(0, index) }
            return knownTypes[0].string
        }
        let type = String(decoding: value, as: UTF8.self)
        if knownTypes.count < Self.knownTypeLimit { knownTypes.insert((Array(value), type), at: 0) }
        return type
    }

    /// Copies the lent `data:` value into `data`, as if it had been read there.
    private mutating func keepLent() {
        guard let value = lent else { return }
        lent = nil
        data.append(contentsOf: value)
        data.append(Self.lf)
    }

    private mutating func dispatch(_ emit: (RawSSEEvent) throws -> Void) rethrows {
        defer {
            lent = nil
            if !data.isEmpty { data.removeAll(keepingCapacity: data.capacity <= Self.keptLineCapacity) }
            if !type.isEmpty { type = "" }
            id = nil
            legacyError = nil
        }
        if let value = lent {
            try emit(RawSSEEvent(type: type.isEmpty ? "message" : type, data: value, id: id, legacyError: legacyError))
            return
        }
        if data.isEmpty && legacyError == nil { return }
        if data.last == Self.lf { data.removeLast() }
        let type = type.isEmpty ? "message" : type
        try data.withUnsafeBufferPointer { bytes in
            try emit(RawSSEEvent(type: type, data: bytes, id: id, legacyError: legacyError))
        }
    }
}
