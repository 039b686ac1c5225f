import ChatDomain
import Testing

@testable import ChatHTTP
@testable import ChatJSON
@testable import ChatProviders

/// A chunk is read once, from its bytes (`ChatStreamDecoder.withChunk`), by the rules the plain
/// reference (`ReferenceChunk`) spells out, whatever its shape: the everyday ones and the
/// unusual.
@Suite("Chunk reading")
struct ChunkReadingTests {
    /// The decoder's reading of `json`, as the reference's terms put it.
    private static func read(_ json: String) -> ReferenceChunk.Reading {
        (try? ChatStreamDecoder.chunk(in: Array(json.utf8))).map(ReferenceChunk.reading(of:)) ?? .notAChunk
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

    @Test("everyday chunks are read as the reference reads them", arguments: plain)
    func everydayChunksAreRead(_ json: String) throws {
        let reading = Self.read(json)
        #expect(reading == ReferenceChunk.read(Array(json.utf8).trimmedJSONWhitespace))
        #expect(reading != .notAChunk)
    }

    /// Anything unusual: read by the same rules, or refused when it is not a JSON object.
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
        String(repeating: #"{"x":["#, count: 300) + String(repeating: "]}", count: 300),
    ]

    @Test("unusual chunks are read by the same rules, or refused", arguments: unusual)
    func unusualChunksAreReadByTheSameRules(_ json: String) {
        #expect(Self.read(json) == ReferenceChunk.read(Array(json.utf8)))
    }

    @Test("an unusual chunk decodes through the stream decoder")
    func unusualChunksDecode() throws {
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

    @Test("a flat error object is an error")
    func flatErrorIsAnError() {
        var decoder = ChatStreamDecoder()
        #expect(throws: ChatError.streamError(message: "busy")) {
            try decoder.decode(SSEEvent(data: #"{"object":"error","message":"busy","choices":[]}"#)) { _ in }
        }
    }

    @Test("a long answer decodes chunk after chunk, text and finish in order")
    func longAnswer() throws {
        func openAI(_ content: String, finish: String = "null") -> String {
            #"{"id":"chatcmpl-B9M","object":"chat.completion.chunk","created":1741569952,"model":"gpt-4o-mini","#
                + #""choices":[{"index":0,"delta":{"content":"\#(content)"},"logprobs":null,"#
                + #""finish_reason":\#(finish)}],"usage":null,"obfuscation":"x4Z"}"#
        }
        var decoder = ChatStreamDecoder()
        var events: [ChatEvent] = []
        for piece in ["He", "llo", " wörld", #"\"q\""#, "\\ud83c!"] {
            try decoder.decode(SSEEvent(data: openAI(piece))) { events.append($0) }
        }
        try decoder.decode(SSEEvent(data: openAI("", finish: #""stop""#))) { events.append($0) }
        #expect(
            events == [
                .text("He"), .text("llo"), .text(" wörld"), .text("\"q\""), .text("\u{FFFD}!"),
                .finished(reason: "stop"),
            ])
        #expect(decoder.isComplete)
    }

    @Test("tool-call fragments are read into the delta, and make no events yet")
    func toolCallFragments() throws {
        let first =
            #"{"choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"#
            + #""id":"call_abc","type":"function","function":{"name":"get_time","arguments":""}}]},"#
            + #""finish_reason":null}]}"#
        let more =
            #"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"tz\":"}}]}}]}"#
        let chunk = try #require(try JSONReader.read(ChatCompletionDTO.self, from: first))
        #expect(
            chunk.choices?.first?.delta?.tool_calls == [
                ToolCallDTO(
                    index: 0, id: "call_abc", type: "function",
                    function: .init(name: "get_time", arguments: ""))
            ])
        let fragment = try #require(try JSONReader.read(ChatCompletionDTO.self, from: more))
        #expect(
            fragment.choices?.first?.delta?.tool_calls == [
                ToolCallDTO(index: 0, function: .init(arguments: #"{"tz":"#))
            ])
        var decoder = ChatStreamDecoder()
        var events: [ChatEvent] = []
        for json in [first, more] { try decoder.decode(SSEEvent(data: json)) { events.append($0) } }
        #expect(events.isEmpty)
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
}
