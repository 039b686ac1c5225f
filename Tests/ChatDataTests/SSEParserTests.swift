import Testing

@testable import ChatHTTP

// MARK: - Table

struct SSECase: Sendable, CustomTestStringConvertible {
    let name: String
    let input: [UInt8]
    let expected: [SSEEvent]

    init(_ name: String, _ input: [UInt8], _ expected: [SSEEvent]) {
        self.name = name
        self.input = input
        self.expected = expected
    }

    init(_ name: String, _ input: String, _ expected: [SSEEvent]) {
        self.init(name, Array(input.utf8), expected)
    }

    var testDescription: String { name }
}

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

private let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

private let cases: [SSECase] = [
    // Basics
    SSECase("single event", "data: hello\n\n", [SSEEvent(data: "hello")]),
    SSECase("two events", "data: a\n\ndata: b\n\n", [SSEEvent(data: "a"), SSEEvent(data: "b")]),
    SSECase("empty input yields nothing", "", []),
    SSECase("blank lines alone dispatch nothing", "\n\n\r\n\r", []),
    SSECase(
        "data passes [DONE] through as plain data", "data: [DONE]\n\n", [SSEEvent(data: "[DONE]")]),

    // Line endings
    SSECase(
        "CRLF line endings", "data: a\r\n\r\ndata: b\r\n\r\n",
        [SSEEvent(data: "a"), SSEEvent(data: "b")]),
    SSECase(
        "lone CR line endings", "data: a\r\rdata: b\r\r", [SSEEvent(data: "a"), SSEEvent(data: "b")]),
    SSECase(
        "mixed LF, CR and CRLF endings in one event",
        "data: a\r\ndata: b\rdata: c\n\r\n",
        [SSEEvent(data: "a\nb\nc")]
    ),
    SSECase(
        "LF then CR are two line ends",
        "data: a\n\rdata: b\n\n",
        [SSEEvent(data: "a"), SSEEvent(data: "b")]
    ),
    SSECase("CR then CRLF ends an event", "data: a\r\r\n", [SSEEvent(data: "a")]),
    SSECase("CRLF split after CR is one line end", "data: a\r\n\r\n", [SSEEvent(data: "a")]),
    SSECase(
        "CRLF inside a multi-line event is one line end",
        "data: a\r\ndata: b\r\n\r\n",
        [SSEEvent(data: "a\nb")]
    ),

    // Comments and field syntax
    SSECase(
        "comment lines are ignored",
        ": keep-alive\n\ndata: x\n: in the middle\ndata: y\n\n",
        [SSEEvent(data: "x\ny")]
    ),
    SSECase("data without a space after the colon", "data:x\n\n", [SSEEvent(data: "x")]),
    SSECase("only one leading space is removed", "data:  x\n\n", [SSEEvent(data: " x")]),
    SSECase("colons after the first belong to the value", "data: a: b\n\n", [SSEEvent(data: "a: b")]),
    SSECase("trailing spaces are kept", "data: a  \n\n", [SSEEvent(data: "a  ")]),
    SSECase(
        "multiple data lines are joined with LF", "data: a\ndata: b\ndata: c\n\n",
        [SSEEvent(data: "a\nb\nc")]),
    SSECase(
        "a leading empty data line contributes LF", "data:\ndata: a\n\n", [SSEEvent(data: "\na")]),
    SSECase("a trailing empty data line keeps one LF", "data: a\ndata:\n\n", [SSEEvent(data: "a\n")]),
    SSECase("empty data dispatches an empty string", "data:\n\n", [SSEEvent(data: "")]),
    SSECase("data with no colon is an empty data line", "data\n\n", [SSEEvent(data: "")]),
    SSECase("two bare data lines give one LF", "data\ndata\n\n", [SSEEvent(data: "\n")]),
    SSECase("field names are case-sensitive", "Data: x\n\n", []),

    // event
    SSECase("event without data dispatches nothing", "event: ping\n\n", []),
    SSECase(
        "event type is set and reset after dispatch",
        "event: delta\ndata: a\n\ndata: b\n\n",
        [SSEEvent(type: "delta", data: "a"), SSEEvent(data: "b")]
    ),
    SSECase(
        "event type from a data-less block does not leak",
        "event: ping\n\ndata: b\n\n",
        [SSEEvent(data: "b")]
    ),
    SSECase(
        "empty event type means message", "event:\ndata: x\n\n", [SSEEvent(type: "message", data: "x")]),
    SSECase(
        "last event line wins", "event: a\nevent: b\ndata: x\n\n", [SSEEvent(type: "b", data: "x")]),

    // id
    SSECase(
        "id is attached to its event only",
        "id: 42\ndata: a\n\ndata: b\n\n",
        [SSEEvent(data: "a", id: "42"), SSEEvent(data: "b")]
    ),
    SSECase("last id line wins", "id: 1\nid: 2\ndata: x\n\n", [SSEEvent(data: "x", id: "2")]),
    SSECase(
        "id containing NUL is ignored", "id: 1\nid: a\u{0}b\ndata: x\n\n",
        [SSEEvent(data: "x", id: "1")]),
    SSECase("empty id is kept as empty", "id:\ndata: x\n\n", [SSEEvent(data: "x", id: "")]),
    SSECase(
        "id-only block dispatches nothing and does not leak", "id: 7\n\ndata: x\n\n",
        [SSEEvent(data: "x")]),

    // Other fields
    SSECase(
        "unknown fields and retry are ignored", "foo: bar\nretry: 1000\ndata: x\n\n",
        [SSEEvent(data: "x")]),
    SSECase("unknown field alone dispatches nothing", "foo: bar\n\n", []),
    SSECase(
        "legacy error line yields an event with legacyError and empty data",
        #"error: {"message":"x"}"# + "\n\n",
        [SSEEvent(data: "", legacyError: #"{"message":"x"}"#)]
    ),
    SSECase(
        "legacy error alongside data keeps both",
        "data: a\nerror: boom\n\ndata: b\n\n",
        [SSEEvent(data: "a", legacyError: "boom"), SSEEvent(data: "b")]
    ),

    // BOM
    SSECase("leading BOM is dropped", bom + bytes("data: a\n\n"), [SSEEvent(data: "a")]),
    SSECase("a BOM-only stream yields nothing", bom, []),
    SSECase(
        "only the first of two BOMs is dropped, the second spoils the first field",
        bom + bom + bytes("data: a\n\ndata: b\n\n"),
        [SSEEvent(data: "b")]
    ),
    SSECase(
        "BOM after the start of the stream is not dropped",
        bytes("data: a\n\n") + bom + bytes("data: b\n\n"),
        [SSEEvent(data: "a")]
    ),
    SSECase(
        "partial BOM at the start is kept as text",
        [0xEF, 0xBB] + bytes("data: a\n\ndata: b\n\n"),
        [SSEEvent(data: "b")]
    ),
    SSECase("BOM before a lone line end", bom + bytes("\r\ndata: a\r\n\r\n"), [SSEEvent(data: "a")]),

    // End of stream
    SSECase(
        "unterminated final event is not dispatched",
        "data: a\n\ndata: b\n",
        [SSEEvent(data: "a")]
    ),
    SSECase("partial final line is discarded", "data: a\n\ndata: b", [SSEEvent(data: "a")]),
    SSECase("lone CR ending the stream ends a line but not the event", "data: a\r", []),

    // Text
    SSECase(
        "multi-byte UTF-8 survives any split",
        "event: 增量\ndata: 你好，世界 🌍👨‍👩‍👧 é\n\n",
        [SSEEvent(type: "增量", data: "你好，世界 🌍👨‍👩‍👧 é")]
    ),
    SSECase(
        "invalid UTF-8 byte becomes U+FFFD",
        bytes("data: a") + [0xFF] + bytes("b\n\n"),
        [SSEEvent(data: "a\u{FFFD}b")]
    ),
    SSECase(
        "truncated sequence at line end becomes U+FFFD",
        bytes("data: ") + [0xE4, 0xBD] + bytes("\ndata: z\n\n"),
        [SSEEvent(data: "\u{FFFD}\nz")]
    ),
    SSECase(
        "U+2028, U+2029 and U+0085 are not line ends",
        "data: a\u{2028}b\u{2029}c\u{85}d\n\n",
        [SSEEvent(data: "a\u{2028}b\u{2029}c\u{85}d")]
    ),
]

// MARK: - Running

/// Feeds the pieces in order, then ends the stream.
private func parse<Piece: Collection>(_ pieces: [Piece]) -> [SSEEvent]
where Piece.Element == UInt8 {
    var parser = SSEParser()
    var events: [SSEEvent] = []
    for piece in pieces {
        events += parser.push(piece)
    }
    parser.finish()
    return events
}

@Suite("SSEParser")
struct SSEParserTests {
    @Test("whole input in one push", arguments: cases)
    func wholeInput(_ testCase: SSECase) {
        #expect(parse([testCase.input]) == testCase.expected)
    }

    @Test("one byte per push", arguments: cases)
    func bytePerPush(_ testCase: SSECase) {
        #expect(parse(testCase.input.map { [$0] }) == testCase.expected)
    }

    @Test("two pushes at every split point", arguments: cases)
    func everySplit(_ testCase: SSECase) {
        let input = testCase.input
        for split in 0...input.count {
            let events = parse([input[..<split], input[split...]])
            #expect(events == testCase.expected, "split at byte \(split)")
        }
    }

    // MARK: Behaviour across pushes

    @Test func crAtEndOfPushAndLfAtStartOfNextAreOneLineEnd() {
        var parser = SSEParser()
        #expect(parser.push(bytes("data: a\r")).isEmpty)
        #expect(parser.push(bytes("\ndata: b\r")).isEmpty)
        #expect(parser.push(bytes("\n\r")) == [SSEEvent(data: "a\nb")])
        #expect(parser.push(bytes("\n")).isEmpty)
    }

    @Test func eventsAreEmittedAsSoonAsTheirBlankLineArrives() {
        var parser = SSEParser()
        #expect(parser.push(bytes("data: a\n")).isEmpty)
        #expect(parser.push(bytes("\ndata: b\n\nda")) == [SSEEvent(data: "a"), SSEEvent(data: "b")])
        #expect(parser.push(bytes("ta: c\n\n")) == [SSEEvent(data: "c")])
    }

    @Test func finishDiscardsThePendingEventAndStartsAFreshStream() {
        var parser = SSEParser()
        #expect(parser.push(bytes("event: x\ndata: lost\nda")).isEmpty)
        parser.finish()
        // A new stream: its BOM is dropped again and nothing of the old event leaks in.
        #expect(parser.push(bom + bytes("data: new\n\n")) == [SSEEvent(data: "new")])
    }

    @Test func acceptsNonContiguousCollections() {
        var parser = SSEParser()
        let lazyBytes = bytes("data: lazy\n\n").lazy.map { $0 }
        #expect(parser.push(lazyBytes) == [SSEEvent(data: "lazy")])
        #expect(parser.push("data: utf8 view\n\n".utf8) == [SSEEvent(data: "utf8 view")])
    }

    @Test func errorThrownByEmitPropagates() {
        struct Stop: Error {}
        var parser = SSEParser()
        var seen: [SSEEvent] = []
        #expect(throws: Stop.self) {
            try parser.push(bytes("data: a\n\ndata: b\n\n")) { event in
                seen.append(SSEEvent(event))
                throw Stop()
            }
        }
        #expect(seen == [SSEEvent(data: "a")])
    }

    // MARK: Size

    @Test func largeSingleDataLineInSmallPiecesIsOneEvent() {
        // Built with bulk operations: per-element appends would dominate a debug run.
        let payload = [UInt8](repeating: UInt8(ascii: "x"), count: 2_500_000)
        let input = bytes("data: ") + payload + bytes("\n\n")
        let expected = [SSEEvent(data: String(decoding: payload, as: UTF8.self))]

        var parser = SSEParser()
        var events: [SSEEvent] = []
        var start = 0
        while start < input.count {
            let end = min(start + 16 * 1024, input.count)
            parser.push(input[start..<end]) { events.append(SSEEvent($0)) }
            start = end
        }
        // Speed is the parser benchmark's job (Benchmarks/), not a timed test's.
        #expect(events == expected)
    }
}
