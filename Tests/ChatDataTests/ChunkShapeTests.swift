import ChatDomain
import Foundation
import Testing

@testable import ChatData

/// `ChunkShape` reads a chunk by comparing it with the last one read in full. It must give
/// exactly what the full reader gives, or nil (and then the full reader reads it).
@Suite("Chunk shapes")
struct ChunkShapeTests {
    private static func shape(_ json: String) throws -> ChunkShape {
        var text = json
        return try #require(text.withUTF8 { ChunkJSONReader.read($0)?.shape })
    }

    private static func viaShape(_ shape: ChunkShape, _ json: String) -> PlainChunk? {
        var text = json
        return text.withUTF8 { shape.read($0) }
    }

    private static func openAI(content: String, id: String = "chatcmpl-B9M", obfuscation: String = "x4Z") -> String {
        #"{"id":"\#(id)","object":"chat.completion.chunk","created":1741569952,"model":"gpt-4o-mini","#
            + #""system_fingerprint":"fp_06737a9306","choices":[{"index":0,"delta":{"content":"\#(content)"},"#
            + #""logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":"\#(obfuscation)"}"#
    }

    @Test("a chunk reads through its own shape as it does in full", arguments: ChunkJSONReaderTests.plain)
    func ownShape(_ json: String) throws {
        let shape = try Self.shape(json)
        let viaShape = try #require(Self.viaShape(shape, json))
        #expect(viaShape == ChunkJSONReader.chunk(json))
    }

    static let sameShape: [String] = [
        openAI(content: "Hello"), openAI(content: ""), openAI(content: "wörld 🎉"),
        openAI(content: #"a\"b\\c\n\u00e9 \ud83c\udf89"#), openAI(content: String(repeating: "long text ", count: 40)),
        openAI(content: "x", id: "chatcmpl-other-id-entirely"), openAI(content: "x", obfuscation: "a much longer pad"),
    ]

    @Test("a lone surrogate is U+FFFD through the shape, as in full")
    func loneSurrogate() throws {
        let shape = try Self.shape(Self.openAI(content: "Hi"))
        let json = Self.openAI(content: "\\ud83c!")
        let viaShape = try #require(Self.viaShape(shape, json))
        #expect(viaShape.delta.content == "\u{FFFD}!")
        #expect(viaShape == ChunkJSONReader.chunk(json))
    }

    @Test("chunks that differ only in string values take the shape", arguments: sameShape)
    func differentValues(_ json: String) throws {
        let shape = try Self.shape(Self.openAI(content: "Hi"))
        let viaShape = try #require(Self.viaShape(shape, json))
        #expect(viaShape == ChunkJSONReader.chunk(json))
        #expect(viaShape.delta.content != nil)
    }

    static let otherShape: [String] = [
        openAI(content: "Hi").replacingFirst("1741569952", with: "1741569953"),  // a number changed
        openAI(content: "Hi").replacingFirst(#""finish_reason":null"#, with: #""finish_reason":"stop""#),
        openAI(content: "Hi").replacingFirst(#""content":"Hi""#, with: #""content":null"#),
        openAI(content: "Hi").replacingFirst(#""index":0"#, with: #""index":1"#),
        openAI(content: "Hi").replacingFirst(#""model""#, with: #""modes""#),  // another key
        openAI(content: "Hi") + " x",  // trailing garbage
        String(openAI(content: "Hi").dropLast()),  // cut short
        openAI(content: #"a","x":"b"#),  // a quote that ends the value early: other keys follow
        openAI(content: "a\u{01}b"),  // a raw control character
        openAI(content: "\\x"),  // an unknown escape
        "{}",
    ]

    @Test("anything else is a mismatch, read in full", arguments: otherShape)
    func mismatch(_ json: String) throws {
        let shape = try Self.shape(Self.openAI(content: "Hi"))
        #expect(Self.viaShape(shape, json) == nil)
    }

    @Test("a flat error object is noticed through the shape")
    func errorObject() throws {
        let template = #"{"object":"chat.completion.chunk","message":"","choices":[]}"#
        let shape = try Self.shape(template)
        let error = try #require(Self.viaShape(shape, #"{"object":"error","message":"busy","choices":[]}"#))
        #expect(error.isErrorObject)
        // An escaped `object` is left to the full reading, through the shape as in full.
        let escaped = #"{"object":"\u0065rror","message":"busy","choices":[]}"#
        #expect(Self.viaShape(shape, escaped) == nil)
        #expect(ChunkJSONReader.chunk(escaped) == nil)
    }

    @Test("only choice 0's texts count through the shape, whatever the order")
    func choiceZero() throws {
        func chunk(_ first: String, _ second: String) -> String {
            #"{"choices":[{"index":1,"delta":{"content":"\#(first)"}},{"index":0,"delta":{"content":"\#(second)"}}]}"#
        }
        let shape = try Self.shape(chunk("a", "b"))
        let read = try #require(Self.viaShape(shape, chunk("other", "zero")))
        #expect(read.delta.content == "zero")
        #expect(read == ChunkJSONReader.chunk(chunk("other", "zero")))
    }

    @Test("a stream decoder reads a long answer through the shape, text and finish as in full")
    func decoderUsesShapes() throws {
        var decoder = ChatStreamDecoder()
        var events: [ChatEvent] = []
        for piece in ["He", "llo", " wörld", #"\"q\""#] {
            try decoder.decode(SSEEvent(data: Self.openAI(content: piece))) { events.append($0) }
        }
        let finish = Self.openAI(content: "").replacingFirst(#""finish_reason":null"#, with: #""finish_reason":"stop""#)
        try decoder.decode(SSEEvent(data: finish)) { events.append($0) }
        #expect(events == [.text("He"), .text("llo"), .text(" wörld"), .text("\"q\""), .finished(reason: "stop")])
        #expect(decoder.isComplete)
    }
}

extension String {
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
