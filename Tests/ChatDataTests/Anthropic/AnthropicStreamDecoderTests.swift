import ChatDomain
import Testing

@testable import ChatHTTP
@testable import ChatProviders

/// `AnthropicStreamDecoder` on Anthropic's documented example streams, each fed through
/// `SSEParser` split in two at every byte boundary (and byte by byte): the events never depend
/// on how the bytes arrived.
@Suite struct AnthropicStreamDecoderTests {
    typealias Outcome = DecodedStream
    private static let splitting = SplitStreamDecoding { AnthropicStreamDecoder() }

    static func decode(_ stream: String, cuts: [Int]) -> Outcome { splitting.decode(stream, cuts: cuts) }

    static func joined(_ events: [ChatEvent]) -> [ChatEvent] {
        SplitStreamDecoding<AnthropicStreamDecoder>.joined(events)
    }

    static func expectSameAtEverySplit(_ stream: String, _ expected: Outcome) {
        splitting.expectSameAtEverySplit(stream, expected)
    }

    @Test func basicStreamIsTextThenStopReasonThenUsage() {
        Self.expectSameAtEverySplit(
            AnthropicStreamExamples.basic,
            Outcome(
                events: [
                    .text("Hello!"), .finished(reason: "end_turn"),
                    .usage(TokenUsage(promptTokens: 25, completionTokens: 15, model: "claude-opus-4-6")),
                ], complete: true))
    }

    @Test func thinkingIsReasoningThenTheWholeBlockWithItsSignature() {
        let thinking =
            "I need to find the GCD of 1071 and 462 using the Euclidean algorithm.\n\n1071 = 2 × 462 + 147"
            + "\n462 = 3 × 147 + 21\n147 = 7 × 21 + 0\n\nSo GCD(1071, 462) = 21"
        Self.expectSameAtEverySplit(
            AnthropicStreamExamples.thinking,
            Outcome(
                events: [
                    .reasoning(thinking),
                    .thinking(
                        .signed(
                            text: thinking, signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds...")),
                    .text("The greatest common divisor of 1071 and 462 is **21**."), .finished(reason: "end_turn"),
                ], complete: true))
    }

    @Test func theToolUseExampleIsItsTextThenOneCallWithTheInputPutTogetherBeforeTheStopReason() {
        let call = ToolCall(
            id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6", name: "get_weather",
            arguments: .object(["location": .string("San Francisco, CA"), "unit": .string("fahrenheit")]))
        Self.expectSameAtEverySplit(
            AnthropicStreamExamples.toolUse,
            Outcome(
                events: [
                    .text("Okay, let's check the weather for San Francisco, CA:"), .toolCalls([call]),
                    .finished(reason: "tool_use"),
                    .usage(TokenUsage(promptTokens: 472, completionTokens: 89, model: "claude-opus-4-6")),
                ], complete: true))
    }

    @Test func severalCallsComeInBlockOrderAnEmptyInputIsAnEmptyObjectAndBadJSONIsKeptAsText() {
        let stream = """
            event: content_block_start
            data: {"type":"content_block_start","index":0,"content_block":{"type":"redacted_thinking","data":"EmwKAhgB"}}

            event: content_block_stop
            data: {"type":"content_block_stop","index":0}

            event: content_block_start
            data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t1","name":"a__x","input":{}}}

            event: content_block_stop
            data: {"type":"content_block_stop","index":1}

            event: content_block_start
            data: {"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"t2","name":"b__y","input":{}}}

            event: content_block_delta
            data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\\"n\\": [1,"}}

            event: content_block_stop
            data: {"type":"content_block_stop","index":2}

            event: message_delta
            data: {"type":"message_delta","delta":{"stop_reason":"tool_use"}}

            event: message_stop
            data: {"type":"message_stop"}


            """
        Self.expectSameAtEverySplit(
            stream,
            Outcome(
                events: [
                    .thinking(.redacted(data: "EmwKAhgB")),
                    .toolCalls([
                        ToolCall(id: "t1", name: "a__x", arguments: .object([:])),
                        ToolCall(id: "t2", name: "b__y", arguments: .string(#"{"n": [1,"#)),
                    ]),
                    .finished(reason: "tool_use"),
                ], complete: true))
    }

    @Test func theSchemaAnswerToolsInputIsAnswerTextAsItComes() {
        let stream = """
            event: content_block_start
            data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"answer","input":{}}}

            event: content_block_delta
            data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\\"ok\\":"}}

            event: content_block_delta
            data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":" true}"}}

            event: content_block_stop
            data: {"type":"content_block_stop","index":0}

            event: message_delta
            data: {"type":"message_delta","delta":{"stop_reason":"tool_use"}}


            """
        Self.expectSameAtEverySplit(
            stream, Outcome(events: [.text(#"{"ok": true}"#), .finished(reason: "tool_use")], complete: true))
    }

    @Test func anErrorEventEndsTheStreamWithTheTextKept() {
        Self.expectSameAtEverySplit(
            AnthropicStreamExamples.overloaded,
            Outcome(events: [.text("Partial")], error: .overloaded(message: "Overloaded"), complete: false))
    }

    @Test func cacheTokensCountInThePromptAndAreReportedApart() {
        let stream = """
            event: message_start
            data: {"type":"message_start","message":{"usage":{"input_tokens":10,"cache_creation_input_tokens":200,"cache_read_input_tokens":3000,"output_tokens":1}}}

            event: message_delta
            data: {"type":"message_delta","delta":{"stop_reason":"max_tokens"},"usage":{"output_tokens":64}}


            """
        #expect(
            Self.decode(stream, cuts: [])
                == Outcome(
                    events: [
                        .finished(reason: "max_tokens"),
                        .usage(
                            TokenUsage(
                                promptTokens: 3210, completionTokens: 64, cacheReadTokens: 3000, cacheWriteTokens: 200)),
                    ], complete: true))
    }

    /// The web search stream as Anthropic's recorded one has it (a cassette of llm-anthropic's,
    /// shortened): the `server_tool_use` input in pieces, the results whole as their block starts,
    /// a cited text block, and the searches counted in `message_delta`'s usage.
    @Test func aWebSearchIsItsQueryTheBlocksToSendBackTheCitationsAndTheCount() {
        let stream = #"""
            event: message_start
            data: {"type":"message_start","message":{"model":"claude-opus-4-1-20250805","content":[],"usage":{"input_tokens":10,"output_tokens":1}}}

            event: content_block_start
            data: {"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srvtoolu_01SP","name":"web_search","input":{}}}

            event: content_block_delta
            data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"query\":"}}

            event: content_block_delta
            data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":" \"San Francisco weather\"}"}}

            event: content_block_stop
            data: {"type":"content_block_stop","index":0}

            event: content_block_start
            data: {"type":"content_block_start","index":1,"content_block":{"type":"web_search_tool_result","tool_use_id":"srvtoolu_01SP","content":[{"type":"web_search_result","title":"SF Weather","url":"https://www.accuweather.com/sf","encrypted_content":"Eo4U","page_age":"3 days ago"}]}}

            event: content_block_stop
            data: {"type":"content_block_stop","index":1}

            event: content_block_start
            data: {"type":"content_block_start","index":2,"content_block":{"citations":[],"type":"text","text":""}}

            event: content_block_delta
            data: {"type":"content_block_delta","index":2,"delta":{"type":"citations_delta","citation":{"type":"web_search_result_location","cited_text":"Overcast","url":"https://www.accuweather.com/sf","title":"SF Weather","encrypted_index":"EpMB"}}}

            event: content_block_delta
            data: {"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":"Overcast today."}}

            event: content_block_stop
            data: {"type":"content_block_stop","index":2}

            event: message_delta
            data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"input_tokens":10423,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":341,"server_tool_use":{"web_search_requests":1}}}

            event: message_stop
            data: {"type":"message_stop"}


            """#
        var usage = TokenUsage(
            promptTokens: 10423, completionTokens: 341, cacheReadTokens: 0, cacheWriteTokens: 0,
            model: "claude-opus-4-1-20250805")
        usage.webSearches = 1
        let results = JSONValue.array([
            .object([
                "type": .string("web_search_result"), "title": .string("SF Weather"),
                "url": .string("https://www.accuweather.com/sf"), "encrypted_content": .string("Eo4U"),
                "page_age": .string("3 days ago"),
            ])
        ])
        Self.expectSameAtEverySplit(
            stream,
            Outcome(
                events: [
                    .searching(query: "San Francisco weather"),
                    .searched(
                        .call(
                            id: "srvtoolu_01SP", name: "web_search",
                            input: .object(["query": .string("San Francisco weather")]))),
                    .searched(.results(callID: "srvtoolu_01SP", content: results)),
                    // The citation kept whole, to go back: its encrypted index as it came.
                    .cited(
                        WebCitation(
                            url: "https://www.accuweather.com/sf", title: "SF Weather",
                            sent: .object([
                                "type": .string("web_search_result_location"), "cited_text": .string("Overcast"),
                                "url": .string("https://www.accuweather.com/sf"), "title": .string("SF Weather"),
                                "encrypted_index": .string("EpMB"),
                            ]))),
                    .text("Overcast today."), .finished(reason: "end_turn"), .usage(usage),
                ], complete: true))
    }

    @Test func unknownEventsAndBlocksAreIgnoredAndRedactedThinkingIsKeptWhole() {
        let stream = """
            event: brand_new_event
            data: {"type":"brand_new_event","whatever":[1,2,3]}

            event: content_block_start
            data: {"type":"content_block_start","index":0,"content_block":{"type":"redacted_thinking","data":"EmwKAhgBEgy3va3pzix/LafPsn4a"}}

            event: content_block_start
            data: {"type":"content_block_start","index":1,"content_block":{"type":"server_tool_use","id":"x","name":"web_search","input":{}}}

            event: content_block_delta
            data: {"type":"content_block_delta","index":2,"delta":{"type":"citations_delta","citation":{"type":"x"}}}

            event: content_block_delta
            data: {"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":"ok"}}

            event: message_stop
            data: {"type":"message_stop"}

            event: content_block_delta
            data: {"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":"after the end"}}


            """
        #expect(
            Self.decode(stream, cuts: [])
                == Outcome(
                    events: [.thinking(.redacted(data: "EmwKAhgBEgy3va3pzix/LafPsn4a")), .text("ok")], complete: true))
    }

    @Test func dataThatIsNotJSONIsAMalformedResponse() {
        let outcome = Self.decode("event: content_block_delta\ndata: {not json\n\n", cuts: [])
        #expect(outcome.error == .malformedResponse("a stream event is not a JSON object: {not json"))
    }
}
