import ChatDomain
import Testing

@testable import ChatData

/// `ChunkJSONReader` must give exactly what the full reading (`JSONParser` and
/// `ChatCompletionChunkDTO`) and the plain reference give, or nil (and then the full reading
/// decides). These tests hold it to that, and check it takes the everyday shapes itself.
@Suite("Chunk JSON reader")
struct ChunkJSONReaderTests {
    private static func decoded(_ json: String) -> ChatCompletionChunkDTO? {
        (try? JSONParser.parse(json)).map(ChatCompletionChunkDTO.init(json:))
    }

    /// Shapes servers send every token: the reader must read them, and agree with the full reading.
    static let plain: [String] = [
        // OpenAI
        #"{"id":"chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT","object":"chat.completion.chunk","created":1741569952,"#
            + #""model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":"fp_06737a9306","#
            + #""choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"#
            + #""finish_reason":null}],"usage":null,"obfuscation":"x4Z"}"#,
        #"{"id":"c","object":"chat.completion.chunk","created":1741569952,"model":"m","system_fingerprint":"fp","#
            + #""choices":[{"index":0,"delta":{"content":"Hello"},"logprobs":null,"finish_reason":null}],"usage":null}"#,
        #"{"id":"c","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}],"usage":null}"#,
        // Azure, with content filter results in and around the choice
        #"{"choices":[{"content_filter_results":{"hate":{"filtered":false,"severity":"safe"}},"#
            + #""delta":{"content":"Hello"},"finish_reason":null,"index":0,"logprobs":null}],"#
            + #""created":1741569952,"id":"chatcmpl-AZ1","model":"gpt-4o","object":"chat.completion.chunk"}"#,
        #"{"choices":[],"created":0,"id":"","model":"","object":"","prompt_filter_results":[{"prompt_index":0,"#
            + #""content_filter_results":{"hate":{"filtered":false,"severity":"safe"}}}]}"#,
        // llama.cpp, DeepSeek, Ollama, refusals
        #"{"choices":[{"finish_reason":null,"index":0,"delta":{"role":"assistant","content":null}}],"#
            + #""created":1741569952,"id":"chatcmpl-Xr2","model":"gemma","object":"chat.completion.chunk"}"#,
        #"{"choices":[{"index":0,"delta":{"content":null,"reasoning_content":"Let me think"}}]}"#,
        #"{"choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":"Okay"}}]}"#,
        #"{"choices":[{"index":0,"delta":{"refusal":"I can't help with that."}}]}"#,
        // Escapes, non-ASCII text, whitespace, several choices, unknown values of every kind
        #"{"choices":[{"index":0,"delta":{"content":"a\"b\\c\/d\n\t\r\b\f \u00e9 \u20AC \ud83c\udf89"}}]}"#,
        #"{"choices":[{"index":0,"delta":{"content":"wörld 🎉 \u0000 end"}}]}"#,
        " \n{ \"choices\" : [ { \"index\" : 0 , \"delta\" : { \"content\" : \"x\" } } ] } \r\n",
        #"{"choices":[{"index":1,"delta":{"content":"B"}},{"index":0,"delta":{"content":"A"}}]}"#,
        #"{"x":1,"choices":[{"index":0,"y":[1,2.5e-3,-0,true,false,null,"s",{}],"delta":{"content":"A","z":{}}}]}"#,
        #"{"choices":null}"#,
        #"{"choices":[{"delta":null}]}"#,
        "{}",
        // Fields chat does not use, of any type (these went to JSONDecoder, which failed on them)
        #"{"created":1.5,"choices":[]}"#,
        #"{"created":1e3,"id":7,"model":null,"system_fingerprint":{"x":[]},"choices":[]}"#,
        #"{"created":99999999999999999999,"choices":[{"index":0,"delta":{"content":"A"}}]}"#,
        #"{"object":5,"error":null,"usage":null,"choices":[{"index":0,"delta":{"content":"A"}}]}"#,
        #"{"id":"a","id":"b","choices":[{"index":0,"delta":{"content":"A"}}]}"#,  // unused keys may repeat
        // A lone or reversed surrogate is U+FFFD (JSONDecoder rejected the chunk)
        #"{"choices":[{"index":0,"delta":{"content":"\ud83c"}}]}"#,
        #"{"choices":[{"index":0,"delta":{"content":"a\udc00\ud800b\ud800\u0041"}}]}"#,
    ]

    @Test("plain chunks are read, exactly as the full reading and the reference read them", arguments: plain)
    func plainChunksAreRead(_ json: String) throws {
        let expected = try #require(Self.decoded(json))
        let chunk = try #require(ChunkJSONReader.chunk(json))
        #expect(chunk == expected.plain)
        #expect(Self.events(chunk) == Self.events(expected))
        #expect(ReferenceChunk.read(Array(json.utf8).trimmedJSONWhitespace) == .chunk(chunk, nil))
    }

    private static func events(_ chunk: PlainChunk) -> [ChatEvent] {
        var events: [ChatEvent] = []
        chunk.forEachEvent { events.append($0) }
        return events
    }

    private static func events(_ dto: ChatCompletionChunkDTO) -> [ChatEvent] {
        var events: [ChatEvent] = []
        dto.forEachEvent { events.append($0) }
        return events
    }

    /// Anything unusual: the reader must give up (the full reading then reads it, or rejects it).
    static let unusual: [String] = [
        #"{"choices":[],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}"#,
        #"{"error":{"message":"overloaded"}}"#,
        #"{"choices":[{"index":0,"delta":{"content":"A","content":"B"}}]}"#,  // repeated key
        #"{"choices":[{"index":0,"delta":{"cont\u0065nt":"A"}}]}"#,  // escaped key
        #"{"choices":[{"index":-1,"delta":{"content":"A"}}]}"#,
        #"{"choices":[{"index":0.0,"delta":{"content":"A"}}]}"#,
        #"{"choices":[{"index":0,"delta":{"content":5}}]}"#,  // wrong type
        #"{"choices":[{"index":"0","delta":{"content":"A"}}]}"#,
        #"{"choices":{"index":0}}"#,
        #"{"choices":[null]}"#,
        #"{"choices":[{"index":0,"delta":{"content":"\x"}}]}"#,  // unknown escape
        "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\u{01}b\"}}]}",  // raw control character
        #"{"choices":[],}"#,  // trailing comma
        #"{"choices":[] "id":"x"}"#,
        #"{"x":01,"choices":[]}"#,
        #"{"x":-,"choices":[]}"#,
        #"{"x":tru,"choices":[]}"#,
        #"{"choices":[]} x"#,  // trailing garbage
        #"{"choices":[]"#,
        #"{"choices":[{"index":0,"delta":{"content":"unterminated}}]}"#,
        #"[]"#,
        String(repeating: #"{"x":["#, count: 40) + String(repeating: "]}", count: 40),
    ]

    @Test("unusual chunks are left to the full reading", arguments: unusual)
    func unusualChunksAreLeftToTheFullReading(_ json: String) {
        #expect(ChunkJSONReader.chunk(json) == nil)
    }

    @Test("a chunk the reader leaves still decodes through the stream decoder")
    func fallbackStillDecodes() throws {
        var decoder = ChatStreamDecoder()
        var events: [ChatEvent] = []
        try decoder.decode(SSEEvent(data: #"{"choices":[{"index":0,"delta":{"cont\u0065nt":"A"}}]}"#)) {
            events.append($0)
        }
        try decoder.decode(SSEEvent(data: #"{"choices":[],"usage":{"prompt_tokens":2,"completion_tokens":3}}"#)) {
            events.append($0)
        }
        #expect(events == [.text("A"), .usage(TokenUsage(promptTokens: 2, completionTokens: 3))])
    }

    @Test("a flat error object read by the reader is still an error")
    func flatErrorIsAnError() {
        var decoder = ChatStreamDecoder()
        #expect(throws: ChatError.streamError(message: "busy")) {
            try decoder.decode(SSEEvent(data: #"{"object":"error","message":"busy","choices":[]}"#)) { _ in }
        }
    }
}

@Suite("Text runs")
struct TextRunTests {
    @Test("adjacent text joins; other events keep their place")
    func adjacentTextJoins() {
        var run = TextRun()
        var out: [ChatEvent] = []
        let events: [ChatEvent] = [
            .reasoning("r"), .text("a"), .text("b"), .finished(reason: "stop"), .text("c"), .text("d"),
        ]
        for event in events { run.add(event) { out.append($0) } }
        run.flush { out.append($0) }
        #expect(out == [.reasoning("r"), .text("ab"), .finished(reason: "stop"), .text("cd")])
    }

    @Test("flushing with nothing held yields nothing")
    func emptyFlush() {
        var run = TextRun()
        var out: [ChatEvent] = []
        run.flush { out.append($0) }
        #expect(out.isEmpty)
    }
}

@Suite("ASCII string helpers")
struct ASCIIStringTests {
    @Test(
        "trimming ASCII whitespace",
        arguments: [
            ("abc", "abc"), (" abc", "abc"), ("abc\r\n", "abc"), ("\t a b \n", "a b"), ("", ""), (" \r\n\t", ""),
            ("é", "é"), (" \u{301}x", " \u{301}x"),
        ])
    func trimming(_ input: String, _ expected: String) {
        #expect(input.trimmingASCIIWhitespace() == expected)
    }

    @Test(
        "byte search",
        arguments: [("{\"error\":1}", true), ("{\"errors\":1}", false), ("\"error\"", true), ("", false)])
    func byteSearch(_ text: String, _ expected: Bool) {
        #expect(text.containsUTF8("\"error\"") == expected)
    }
}
