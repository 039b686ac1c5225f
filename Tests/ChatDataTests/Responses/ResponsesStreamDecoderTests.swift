import ChatDomain
import Testing

@testable import ChatHTTP
@testable import ChatProviders

/// `ResponsesStreamDecoder` on OpenAI's documented example events and LiteLLM's captured
/// streams, each fed through `SSEParser` whole, split in two at every byte boundary, and byte by
/// byte: the events never depend on how the bytes arrived.
@Suite struct ResponsesStreamDecoderTests {
    typealias Outcome = DecodedStream
    private static let splitting = SplitStreamDecoding { ResponsesStreamDecoder() }

    static func decode(_ stream: String, cuts: [Int]) -> Outcome { splitting.decode(stream, cuts: cuts) }

    static func joined(_ events: [ChatEvent]) -> [ChatEvent] {
        SplitStreamDecoding<ResponsesStreamDecoder>.joined(events)
    }

    static func expectSameAtEverySplit(_ stream: String, _ expected: Outcome) {
        splitting.expectSameAtEverySplit(stream, expected)
    }

    /// The documented `response.completed`'s usage: all zeros, of the documented model.
    static let zeroUsage = TokenUsage(
        promptTokens: 0, completionTokens: 0, totalTokens: 0, reasoningTokens: 0, model: "gpt-4o-mini-2024-07-18")

    // MARK: Answers

    @Test func textDeltasAreTheAnswerAndTheDoneEventsRepeatNothing() {
        Self.expectSameAtEverySplit(
            ResponsesStreamExamples.text,
            Outcome(events: [.text("In"), .finished(reason: "stop"), .usage(Self.zeroUsage)], complete: true))
    }

    @Test func aRefusalIsAnswerText() {
        Self.expectSameAtEverySplit(
            ResponsesStreamExamples.refusal,
            Outcome(
                events: [.text("refusal text so far"), .finished(reason: "stop"), .usage(Self.zeroUsage)],
                complete: true))
    }

    @Test func liteLLMsStreamWithoutEventLinesEndsWithItsUsageAndCachedTokens() {
        Self.expectSameAtEverySplit(
            ResponsesStreamExamples.liteLLMText,
            Outcome(
                events: [
                    .text("Hello from fake"), .finished(reason: "stop"),
                    .usage(
                        TokenUsage(
                            promptTokens: 11, completionTokens: 5, totalTokens: 16, cacheReadTokens: 3,
                            reasoningTokens: 0, model: "fake-model")),
                ], complete: true))
    }

    // MARK: Reasoning

    @Test func summaryPartsAreReasoningWithABlankLineBetweenThenTheItemWholeWithItsEncryptedContent() {
        let second = "**Answering**\n\nA short, friendly reply."
        Self.expectSameAtEverySplit(
            ResponsesStreamExamples.reasoning,
            Outcome(
                events: [
                    .reasoning(ResponsesStreamExamples.greetingSummary + "\n\n" + second),
                    .thinking(
                        .encryptedReasoning(
                            summary: [ResponsesStreamExamples.greetingSummary, second],
                            content: "gAAAAABoBr_K9w+/x==")),
                    .text("Hi there!"), .finished(reason: "stop"),
                    .usage(
                        TokenUsage(
                            promptTokens: 9, completionTokens: 148, totalTokens: 157, cacheReadTokens: 4,
                            cacheWriteTokens: 0, reasoningTokens: 128, model: "o3-2025-04-16")),
                ], complete: true))
    }

    @Test func aReasoningItemWithoutEncryptedContentIsShownButNotKept() {
        let stream = """
            event: response.reasoning_summary_text.delta
            data: {"type":"response.reasoning_summary_text.delta","item_id":"rs_1","output_index":0,"summary_index":0,"delta":"Thinking."}

            event: response.output_item.done
            data: {"type":"response.output_item.done","output_index":0,"item":{"id":"rs_1","type":"reasoning","summary":[{"type":"summary_text","text":"Thinking."}]}}

            event: response.output_item.done
            data: {"type":"response.output_item.done","output_index":1,"item":{"id":"rs_2","type":"reasoning","summary":[],"encrypted_content":""}}


            """
        Self.expectSameAtEverySplit(stream, Outcome(events: [.reasoning("Thinking.")], complete: false))
    }

    @Test func twoReasoningItemsSummariesAreSeparatedByABlankLine() {
        // Each item numbers its summary parts from 0.
        let stream = """
            event: response.reasoning_summary_text.delta
            data: {"type":"response.reasoning_summary_text.delta","item_id":"rs_1","output_index":0,"summary_index":0,"delta":"First."}

            event: response.reasoning_summary_text.delta
            data: {"type":"response.reasoning_summary_text.delta","item_id":"rs_2","output_index":1,"summary_index":0,"delta":"Second."}


            """
        Self.expectSameAtEverySplit(stream, Outcome(events: [.reasoning("First.\n\nSecond.")], complete: false))
    }

    // MARK: Function calls

    @Test func theDocumentedCallIsHandedOnFromItsItemDoneBeforeTheToolCallsReason() {
        Self.expectSameAtEverySplit(
            ResponsesStreamExamples.functionCall,
            Outcome(
                events: [
                    .toolCalls([
                        ToolCall(id: "call_abc", name: "get_weather", arguments: .object(["arg": .number(123)]))
                    ]),
                    .finished(reason: "tool_calls"), .usage(Self.zeroUsage),
                ], complete: true))
    }

    @Test func liteLLMsCallInItsItemAndInTheResponseIsHandedOnOnce() {
        Self.expectSameAtEverySplit(
            ResponsesStreamExamples.liteLLMToolCall,
            Outcome(
                events: [
                    .toolCalls([
                        ToolCall(id: "call_1", name: "get_weather", arguments: .object(["city": .string("Paris")]))
                    ]),
                    .finished(reason: "tool_calls"),
                    .usage(
                        TokenUsage(
                            promptTokens: 11, completionTokens: 5, totalTokens: 16, cacheReadTokens: 3,
                            reasoningTokens: 0, model: "fake-model")),
                ], complete: true))
    }

    @Test func severalCallsComeTogetherInOrderAfterTheReasoningItemThatLedToThem() {
        let stream = """
            event: response.output_item.done
            data: {"type":"response.output_item.done","output_index":0,"item":{"id":"rs_1","type":"reasoning","summary":[],"encrypted_content":"ZW5j"}}

            event: response.output_text.delta
            data: {"type":"response.output_text.delta","item_id":"msg_1","output_index":1,"content_index":0,"delta":"Checking."}

            event: response.output_item.done
            data: {"type":"response.output_item.done","output_index":2,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"a__x","arguments":"{}","status":"completed"}}

            event: response.output_item.done
            data: {"type":"response.output_item.done","output_index":3,"item":{"type":"function_call","id":"fc_2","call_id":"call_2","name":"b__y","arguments":"{\\"n\\": [1,","status":"completed"}}

            event: response.completed
            data: {"type":"response.completed","response":{"status":"completed","output":[]}}


            """
        Self.expectSameAtEverySplit(
            stream,
            Outcome(
                events: [
                    .thinking(.encryptedReasoning(summary: [], content: "ZW5j")), .text("Checking."),
                    .toolCalls([
                        ToolCall(id: "call_1", name: "a__x", arguments: .object([:])),
                        ToolCall(id: "call_2", name: "b__y", arguments: .string(#"{"n": [1,"#)),
                    ]),
                    .finished(reason: "tool_calls"),
                ], complete: true))
    }

    @Test func callsOnlyInTheCompletedResponseAreHandedOnToo() {
        let stream = """
            event: response.completed
            data: {"type":"response.completed","response":{"status":"completed","output":[{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_weather","arguments":"{\\"city\\":\\"Paris\\"}"}]}}


            """
        Self.expectSameAtEverySplit(
            stream,
            Outcome(
                events: [
                    .toolCalls([
                        ToolCall(id: "call_1", name: "get_weather", arguments: .object(["city": .string("Paris")]))
                    ]),
                    .finished(reason: "tool_calls"),
                ], complete: true))
    }

    // MARK: Ends

    @Test func incompleteAtMaxOutputTokensIsLength() {
        Self.expectSameAtEverySplit(
            ResponsesStreamExamples.incomplete,
            Outcome(events: [.text("In"), .finished(reason: "length")], complete: true))
    }

    @Test func incompleteForAnotherReasonSaysThatReason() {
        let stream = """
            event: response.incomplete
            data: {"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":{"reason":"content_filter"}}}


            """
        Self.expectSameAtEverySplit(stream, Outcome(events: [.finished(reason: "content_filter")], complete: true))
    }

    @Test func aFailedResponseMidStreamKeepsTheTextThenThrowsTheServersMessage() {
        Self.expectSameAtEverySplit(
            ResponsesStreamExamples.failed,
            Outcome(
                events: [.text("In")],
                error: .streamError(message: "The model failed to generate a response. (server_error)"),
                complete: false))
    }

    @Test func anErrorEventThrowsItsMessageAndCode() {
        Self.expectSameAtEverySplit(
            ResponsesStreamExamples.error,
            Outcome(
                events: [.text("In")], error: .streamError(message: "Something went wrong (ERR_SOMETHING)"),
                complete: false))
    }

    @Test func anErrorEventWithItsFieldsNestedAsTheLiveAPISendsItThrowsItsMessageAndCode() {
        Self.expectSameAtEverySplit(
            ResponsesStreamExamples.nestedError,
            Outcome(error: .streamError(message: "Too Many Requests (too_many_requests)"), complete: false))
    }

    @Test func unknownEventsAreIgnored() {
        let stream = """
            event: response.queued
            data: {"type":"response.queued","response":{"status":"queued"},"sequence_number":0}

            event: response.web_search_call.in_progress
            data: {"type":"response.web_search_call.in_progress","output_index":0,"item_id":"ws_123","sequence_number":0}

            event: response.brand_new_event
            data: {"type":"response.brand_new_event","delta":"not text","item":{"type":"function_call","call_id":"x"}}

            event: response.output_item.done
            data: {"type":"response.output_item.done","output_index":0,"item":{"type":"file_search_call","id":"fs_123","status":"completed"}}

            data: [1, 2, 3]

            event: response.output_text.delta
            data: {"type":"response.output_text.delta","item_id":"msg_1","output_index":1,"content_index":0,"delta":"ok"}


            """
        Self.expectSameAtEverySplit(stream, Outcome(events: [.text("ok")], complete: false))
    }

    /// A web search: its query as soon as an item says it (once), the item whole when done (its
    /// id left out), each `url_citation` as a citation, kept whole (from its annotation event,
    /// not again from the done message), and the search counted in the usage.
    @Test func aWebSearchIsShownKeptCitedAndCounted() {
        let stream = """
            event: response.output_item.added
            data: {"type":"response.output_item.added","output_index":0,"item":{"id":"ws_1","type":"web_search_call","status":"in_progress","action":{"type":"search","query":"tides"}}}

            event: response.web_search_call.searching
            data: {"type":"response.web_search_call.searching","output_index":0,"item_id":"ws_1"}

            event: response.output_item.done
            data: {"type":"response.output_item.done","output_index":0,"item":{"id":"ws_1","type":"web_search_call","status":"completed","action":{"type":"search","query":"tides"}}}

            event: response.output_text.delta
            data: {"type":"response.output_text.delta","item_id":"msg_1","output_index":1,"content_index":0,"delta":"High at noon."}

            event: response.output_text.annotation.added
            data: {"type":"response.output_text.annotation.added","item_id":"msg_1","output_index":1,"content_index":0,"annotation_index":0,"annotation":{"type":"url_citation","url":"https://tides.example/","title":"Tides","start_index":0,"end_index":13}}

            event: response.output_item.done
            data: {"type":"response.output_item.done","output_index":1,"item":{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"output_text","text":"High at noon.","annotations":[{"type":"file_citation","file_id":"f"},{"type":"url_citation","url":"https://tides.example/","title":"Tides","start_index":0,"end_index":13}]}]}}

            event: response.completed
            data: {"type":"response.completed","response":{"status":"completed","model":"gpt-5","output":[],"usage":{"input_tokens":10,"output_tokens":4,"total_tokens":14}}}


            """
        var usage = TokenUsage(promptTokens: 10, completionTokens: 4, totalTokens: 14, model: "gpt-5")
        usage.webSearches = 1
        let item = JSONValue.object([
            "type": .string("web_search_call"), "status": .string("completed"),
            "action": .object(["type": .string("search"), "query": .string("tides")]),
        ])
        // Once: its annotation event says it, and the item done does not again.
        let annotation = JSONValue.object([
            "type": .string("url_citation"), "url": .string("https://tides.example/"), "title": .string("Tides"),
            "start_index": .number(0), "end_index": .number(13),
        ])
        let citation = ChatEvent.cited(WebCitation(url: "https://tides.example/", title: "Tides", sent: annotation))
        Self.expectSameAtEverySplit(
            stream,
            Outcome(
                events: [
                    .searching(query: "tides"), .searched(.item(item)), .text("High at noon."), citation,
                    .finished(reason: "stop"), .usage(usage),
                ], complete: true))
    }

    /// A server that sends no annotation events: the citations come from the message item done.
    @Test func citationsWithoutAnnotationEventsComeFromTheMessageItem() {
        let stream = """
            event: response.output_text.delta
            data: {"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":"High at noon."}

            event: response.output_item.done
            data: {"type":"response.output_item.done","output_index":0,"item":{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"output_text","text":"High at noon.","annotations":[{"type":"url_citation","url":"https://tides.example/","title":"Tides","start_index":0,"end_index":13}]}]}}

            event: response.completed
            data: {"type":"response.completed","response":{"status":"completed","model":"gpt-5","output":[],"usage":{"input_tokens":10,"output_tokens":4,"total_tokens":14}}}


            """
        let annotation = JSONValue.object([
            "type": .string("url_citation"), "url": .string("https://tides.example/"), "title": .string("Tides"),
            "start_index": .number(0), "end_index": .number(13),
        ])
        Self.expectSameAtEverySplit(
            stream,
            Outcome(
                events: [
                    .text("High at noon."),
                    .cited(WebCitation(url: "https://tides.example/", title: "Tides", sent: annotation)),
                    .finished(reason: "stop"),
                    .usage(TokenUsage(promptTokens: 10, completionTokens: 4, totalTokens: 14, model: "gpt-5")),
                ], complete: true))
    }

    @Test func doneEndsTheStreamAndWhatFollowsIsIgnored() {
        let stream = """
            data: {"type":"response.output_text.delta","delta":"ok"}

            data: [DONE]

            data: {"type":"response.output_text.delta","delta":"after the end"}

            data: {not json


            """
        Self.expectSameAtEverySplit(stream, Outcome(events: [.text("ok")], complete: true))
        var decoder = ResponsesStreamDecoder()
        var parser = SSEParser()
        try? parser.push(Array("data: [DONE]\n\n".utf8)) { try decoder.decode($0) { _ in } }
        #expect(decoder.isDone)
    }

    @Test func eventsAfterTheResponseEndedAreIgnored() {
        let stream =
            ResponsesStreamExamples.completed + """
                event: response.output_text.delta
                data: {"type":"response.output_text.delta","delta":"after the end"}


                """
        Self.expectSameAtEverySplit(
            stream, Outcome(events: [.finished(reason: "stop"), .usage(Self.zeroUsage)], complete: true))
    }

    @Test func aStreamThatStopsBeforeItsEndIsNotComplete() {
        let outcome = Self.decode(
            "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"delta\":\"In\"}\n\n",
            cuts: [])
        #expect(outcome == Outcome(events: [.text("In")], complete: false))
    }

    @Test func dataThatIsNotJSONIsAMalformedResponse() {
        let outcome = Self.decode("event: response.output_text.delta\ndata: {not json\n\n", cuts: [])
        #expect(outcome.error == .malformedResponse("an event is not JSON: {not json"))
    }
}
