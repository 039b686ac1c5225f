import ChatDomain
import Testing

@testable import ChatHTTP
@testable import ChatProviders

/// Decode what chat needs, tolerate the rest: a field chat does not use never fails an answer,
/// whatever its type or value; a used field of another type is left out; a repeated key takes
/// its last value; a lone surrogate is U+FFFD. For every shape: a streamed chunk, a whole
/// completion, an error body and the model list.
@Suite("Lenient decoding")
struct LenientDecodingTests {
    /// The events of `json` decoded as one stream event.
    private static func streamed(_ json: String) throws(ChatError) -> [ChatEvent] {
        var decoder = ChatStreamDecoder()
        var events: [ChatEvent] = []
        try decoder.decode(SSEEvent(data: json)) { events.append($0) }
        return events
    }

    static let chunks: [(String, [ChatEvent])] = [
        (
            #"{"id":123,"created":1741569952.123,"model":null,"choices":[{"index":0,"delta":{"content":"A"}}]}"#,
            [.text("A")]
        ),
        (
            #"{"id":null,"object":null,"system_fingerprint":7,"service_tier":{"x":[1,2]},"choices":[{"index":0,"delta":{"content":"A"}}]}"#,
            [.text("A")]
        ),
        (
            #"{"choices":[{"index":0,"delta":{"content":"A"},"logprobs":{"content":[{"token":"A","logprob":-0.5}]}}],"extra":[true,false]}"#,
            [.text("A")]
        ),
        (#"{"choices":[{"index":0,"delta":{"content":"first","content":"last"}}]}"#, [.text("last")]),
        (
            #"{"choices":[{"index":0,"delta":{"content":"x"}}],"choices":[{"index":0,"delta":{"content":"y"}}]}"#,
            [.text("y")]
        ),
        (
            #"{"choices":[{"index":0,"delta":{"content":"a\ud800b\udc00c\udc00\ud800d"}}]}"#,
            [.text("a\u{FFFD}b\u{FFFD}c\u{FFFD}\u{FFFD}d")]
        ),
        (#"{"choices":[{"index":0,"delta":{"content":null,"role":null,"refusal":null},"finish_reason":null}]}"#, []),
        (#"{"choices":[{"index":0,"delta":{"content":5,"reasoning":"think"}}]}"#, [.reasoning("think")]),
        (#"{"choices":[{"index":0,"delta":null,"finish_reason":"stop"}]}"#, [.finished(reason: "stop")]),
        (#"{"choices":[{"index":0,"delta":"text","finish_reason":42}]}"#, []),
        (#"{"choices":"none"}"#, []),
        (#"{"choices":[null,"x",{"delta":{"content":"A"}}]}"#, [.text("A")]),
        (#"{"choices":[{"index":"0","delta":{"content":"A"}}]}"#, [.text("A")]),
        (#"{"choices":[{"index":0.0,"delta":{"content":"A"}}]}"#, [.text("A")]),
        (#"{"choices":[{"index":1.5,"delta":{"content":"B"}},{"index":0,"delta":{"content":"A"}}]}"#, [.text("A")]),
        (
            #"{"choices":[],"usage":{"prompt_tokens":3.0,"completion_tokens":2,"total_tokens":"5"}}"#,
            [.usage(TokenUsage(promptTokens: 3, completionTokens: 2))]
        ),
        (#"{"choices":[],"usage":"lots"}"#, []),
        (#"{"error":null,"choices":[{"index":0,"delta":{"content":"A"}}]}"#, [.text("A")]),
        (#"{"error":7,"choices":[{"index":0,"delta":{"content":"A"}}]}"#, [.text("A")]),
    ]

    @Test("a streamed chunk reads what chat uses, whatever else it holds", arguments: chunks)
    func streamedChunk(_ json: String, _ expected: [ChatEvent]) throws {
        #expect(try Self.streamed(json) == expected)
        // The decoder's reading agrees with the reference.
        let chunk = try ChatStreamDecoder.chunk(in: Array(json.utf8))
        #expect(ReferenceChunk.reading(of: chunk) == ReferenceChunk.read(Array(json.utf8)))
    }

    @Test(
        "errors are read leniently too",
        arguments: [
            (#"{"error":{"message":"busy","code":{"x":1},"param":5}}"#, "busy"),
            (#"{"error":{"message":7,"type":"overloaded_error"}}"#, "overloaded_error"),
            (#"{"error":{"message":"first","message":"last"}}"#, "last"),
            (#"{"error":"plain \ud800 text"}"#, "plain \u{FFFD} text"),
            (#"{"object":"error","message":null,"type":"BadRequestError","code":400.5}"#, "BadRequestError"),
            (#"{"error":5,"object":"error","message":"flat"}"#, "flat"),
        ])
    func errorsInTheStream(_ json: String, _ message: String) {
        #expect(throws: ChatError.streamError(message: message)) { try Self.streamed(json) }
    }

    @Test("a whole completion reads what chat uses")
    func wholeCompletion() throws {
        let body = #"""
            {"id":99,"object":"chat.completion","created":1.5e9,"model":null,"system_fingerprint":{},
             "choices":[{"index":0.0,"message":{"role":"assistant","content":"Hi \ud83d","content":"Hi \ud83d!","tool_calls":null},
             "finish_reason":"stop","logprobs":{"x":[]}}],"usage":{"prompt_tokens":5,"completion_tokens":2.0,"total_tokens":null}}
            """#
        var events: [ChatEvent] = []
        try OpenAIProvider().decodeWhole(Array(body.utf8)) { events.append($0) }
        #expect(
            events == [
                .text("Hi \u{FFFD}!"), .finished(reason: "stop"),
                .usage(TokenUsage(promptTokens: 5, completionTokens: 2)),
            ])
    }

    @Test("an error body and a model list are read leniently")
    func errorBodyAndModels() {
        let error = OpenAIProvider().errorDetail(
            in: Array(#"{"error":{"message":"no \udc00","type":null,"param":"stream_options","code":429.0}}"#.utf8))
        #expect(error == ServerErrorDetail(message: "no \u{FFFD}", param: "stream_options"))
        let page = OpenAIProvider().modelPage(
            in: Array(
                #"{"object":5,"data":[{"id":"a","created":1.5,"owned_by":null},{"id":7},null,{"id":"b","id":"c"}]}"#
                    .utf8))
        #expect(page?.models.map(\.id) == ["a", "c"])
        #expect(page?.nextCursor == nil)
    }
}
