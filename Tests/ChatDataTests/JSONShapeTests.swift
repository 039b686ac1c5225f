import ChatDomain
import Foundation
import Testing

@testable import ChatJSON
@testable import ChatProviders

/// `JSONShape` reads a chunk by comparing it with the last one read in full and putting its
/// strings into that one's DTO. It must give exactly what a reading in full gives, or nil (and
/// then the chunk is read in full).
@Suite("JSON shapes")
struct JSONShapeTests {
    private static func shape(_ json: String) throws -> JSONShape<ChatCompletionDTO> {
        let shape = Array(json.utf8).withUnsafeBufferPointer { try? JSONShape<ChatCompletionDTO>.reading($0).1 }
        return try #require(shape ?? nil)
    }

    private static func viaShape(_ shape: inout JSONShape<ChatCompletionDTO>, _ json: String) -> ChatCompletionDTO? {
        Array(json.utf8).withUnsafeBufferPointer { shape.read($0) { $0 } }
    }

    private static func inFull(_ json: String) -> ChatCompletionDTO? {
        try? ChatStreamDecoder.chunk(in: Array(json.utf8))
    }

    private static func openAI(content: String, id: String = "chatcmpl-B9M", obfuscation: String = "x4Z") -> String {
        #"{"id":"\#(id)","object":"chat.completion.chunk","created":1741569952,"model":"gpt-4o-mini","#
            + #""system_fingerprint":"fp_06737a9306","choices":[{"index":0,"delta":{"content":"\#(content)"},"#
            + #""logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":"\#(obfuscation)"}"#
    }

    @Test("a chunk reads through its own shape as it does in full", arguments: ChunkReadingTests.plain)
    func ownShape(_ json: String) throws {
        // A repeated key leaves no shape (see `noShape`); every other everyday chunk has one.
        let repeats = json.contains(#""id":"a","id":"b""#)
        let shape = Array(json.utf8).withUnsafeBufferPointer { try? JSONShape<ChatCompletionDTO>.reading($0).1 }
        #expect((shape == nil) == repeats)
        guard var shape = shape ?? nil else { return }
        let read = try #require(Self.viaShape(&shape, json))
        #expect(read == Self.inFull(json))
    }

    static let sameShape: [String] = [
        openAI(content: "Hello"), openAI(content: ""), openAI(content: "wörld 🎉"),
        openAI(content: #"a\"b\\c\n\u00e9 \ud83c\udf89"#), openAI(content: String(repeating: "long text ", count: 40)),
        openAI(content: "x", id: "chatcmpl-other-id-entirely"), openAI(content: "x", obfuscation: "a much longer pad"),
    ]

    @Test("chunks that differ only in string values take the shape, one after another")
    func differentValues() throws {
        var shape = try Self.shape(Self.openAI(content: "Hi"))
        for json in Self.sameShape {
            let read = try #require(Self.viaShape(&shape, json))
            #expect(read == Self.inFull(json))
        }
    }

    @Test("a lone surrogate is U+FFFD through the shape, as in full")
    func loneSurrogate() throws {
        var shape = try Self.shape(Self.openAI(content: "Hi"))
        let json = Self.openAI(content: "\\ud83c!")
        let read = try #require(Self.viaShape(&shape, json))
        #expect(read.choices?.first?.delta?.content == "\u{FFFD}!")
        #expect(read == Self.inFull(json))
    }

    static let otherShape: [String] = [
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

    @Test("a number passed over may differ (a stream's sequence number): read through the shape, as in full")
    func numberPassedOver() throws {
        var shape = try Self.shape(Self.openAI(content: "Hi"))
        for created in ["1741569953", "7", "-2.5e3"] {
            let json = Self.openAI(content: "Yo").replacingFirst("1741569952", with: created)
            let read = try #require(Self.viaShape(&shape, json), "\(created)")
            #expect(read == Self.inFull(json))
            #expect(read.choices?.first?.delta?.content == "Yo")
        }
        // A number read into a field is part of the shape.
        #expect(
            Self.viaShape(&shape, Self.openAI(content: "Hi").replacingFirst(#""index":0"#, with: #""index":1"#)) == nil)
    }

    @Test("anything else is a mismatch, read in full", arguments: otherShape)
    func mismatch(_ json: String) throws {
        var shape = try Self.shape(Self.openAI(content: "Hi"))
        #expect(Self.viaShape(&shape, json) == nil)
        // After a mismatch (found before or after some strings were put in), a chunk of its own
        // shape is read right, or left to a reading in full: never read wrong.
        let next = Self.openAI(content: "Yo")
        let read = Self.viaShape(&shape, next)
        #expect(read == nil || read == Self.inFull(next))
    }

    @Test("a value compared, not read into a string field, is part of the shape: a flat error is noticed")
    func errorObject() throws {
        var shape = try Self.shape(#"{"object":"chat.completion.chunk","message":"","choices":[]}"#)
        #expect(Self.viaShape(&shape, #"{"object":"error","message":"busy","choices":[]}"#) == nil)
        let read = try #require(
            Self.viaShape(&shape, #"{"object":"chat.completion.chunk","message":"m","choices":[]}"#))
        #expect(read.error.message == "m")
        #expect(read.error.summary() == nil)
    }

    @Test("only choice 0's texts count through the shape, whatever the order")
    func choiceZero() throws {
        func chunk(_ first: String, _ second: String) -> String {
            #"{"choices":[{"index":1,"delta":{"content":"\#(first)"}},{"index":0,"delta":{"content":"\#(second)"}}]}"#
        }
        var shape = try Self.shape(chunk("a", "b"))
        let read = try #require(Self.viaShape(&shape, chunk("other", "zero")))
        #expect(read == Self.inFull(chunk("other", "zero")))
        var events: [ChatEvent] = []
        read.forEachStreamEvent { events.append($0) }
        #expect(events == [.text("zero")])
    }

    @Test("a repeated key or a key with escapes leaves no shape: a later value replaces an earlier one")
    func noShape() {
        for json in [
            #"{"choices":[{"index":0,"delta":{"content":"a"}}],"choices":[{"index":0,"delta":{}}]}"#,
            #"{"choices":[{"index":0,"delta":{"content":"a","content":"b"}}]}"#,
            #"{"choices":[{"index":0,"delta":{"cont\u0065nt":"a"}}]}"#,
        ] {
            let read = Array(json.utf8).withUnsafeBufferPointer { try? JSONShape<ChatCompletionDTO>.reading($0) }
            #expect(read?.0 != nil)
            #expect(read?.1 == nil, "\(json)")
        }
    }

    @Test("a string that is an element of another type than the array's is only checked")
    func droppedElements() throws {
        let json = #"{"choices":["x",{"index":0,"delta":{"content":"A"}}]}"#
        var shape = try Self.shape(json)
        let other = #"{"choices":["y",{"index":0,"delta":{"content":"B"}}]}"#
        let read = try #require(Self.viaShape(&shape, other))
        #expect(read == Self.inFull(other))
    }
}

extension String {
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
