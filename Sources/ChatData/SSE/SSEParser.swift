/// Incremental parser for the WHATWG `text/event-stream` format over raw bytes.
///
/// Feed bytes as they arrive with `push`; complete events are handed to `emit`.
/// Differences from the spec, on purpose:
/// - `id` is per event (reset at every blank line); there is no last-event-id persistence.
/// - A non-standard `error:` field is kept as `legacyError`, and an event carrying one is
///   dispatched even when it has no data (legacy llama.cpp sends `error: {...}`).
///
/// Work is linear in the bytes received: only newly pushed bytes are scanned for line ends,
/// and text is decoded once per complete line (data once per event), never per byte.
/// Standard library only: no Foundation.
struct SSEParser {
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
    private var type = ""
    private var id: String?
    private var legacyError: String?

    init() {}

    /// Feeds the next bytes as they arrived from the network; calls `emit` for each complete event.
    ///
    /// If `emit` throws, the error propagates and the rest of these bytes is dropped.
    mutating func push<Bytes: Collection>(
        _ bytes: Bytes,
        _ emit: (SSEEvent) throws -> Void
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

    /// Convenience for tests and small callers.
    mutating func push<Bytes: Collection>(_ bytes: Bytes) -> [SSEEvent] where Bytes.Element == UInt8 {
        var events: [SSEEvent] = []
        push(bytes) { events.append($0) }
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
        _ emit: (SSEEvent) throws -> Void
    ) rethrows {
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
            var j = i
            while j < end {
                let byte = buffer[j]
                if byte == Self.lf || byte == Self.cr { break }
                j += 1
            }
            if j > i {
                line.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[i..<j]))
            }
            if j == end { break }
            sawCR = buffer[j] == Self.cr
            i = j + 1
            try processLine(emit)
            if line.capacity > Self.keptLineCapacity {
                line = []
            } else {
                line.removeAll(keepingCapacity: true)
            }
        }
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

    private mutating func processLine(_ emit: (SSEEvent) throws -> Void) rethrows {
        guard let first = line.first else {
            try dispatch(emit)
            return
        }
        if first == Self.colon { return }  // comment

        let field: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: Self.colon) {
            field = line[..<colon]
            value = line[(colon + 1)...]
            if value.first == Self.space { value = value.dropFirst() }
        } else {
            field = line[...]
            value = []
        }

        // UTF-8 never uses ASCII bytes inside multi-byte sequences, so comparing the raw field
        // bytes is the same as comparing the decoded name (a stray BOM or invalid byte simply
        // makes the field unknown, as the spec wants).
        if field.elementsEqual("data".utf8) {
            data.append(contentsOf: value)
            data.append(Self.lf)
        } else if field.elementsEqual("event".utf8) {
            type = String(decoding: value, as: UTF8.self)
        } else if field.elementsEqual("id".utf8) {
            if !value.contains(0) { id = String(decoding: value, as: UTF8.self) }
        } else if field.elementsEqual("error".utf8) {
            legacyError = String(decoding: value, as: UTF8.self)
        }
        // `retry` and unknown fields are ignored.
    }

    private mutating func dispatch(_ emit: (SSEEvent) throws -> Void) rethrows {
        defer {
            data.removeAll(keepingCapacity: data.capacity <= Self.keptLineCapacity)
            type = ""
            id = nil
            legacyError = nil
        }
        if data.isEmpty && legacyError == nil { return }
        if data.last == Self.lf { data.removeLast() }
        // Decoding the joined buffer equals decoding each line: LF is never part of a UTF-8
        // sequence, so invalid bytes become the same U+FFFD either way.
        let event = SSEEvent(
            type: type.isEmpty ? "message" : type,
            data: String(decoding: data, as: UTF8.self),
            id: id,
            legacyError: legacyError
        )
        try emit(event)
    }
}
