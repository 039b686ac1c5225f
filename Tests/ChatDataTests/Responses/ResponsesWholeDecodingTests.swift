import ChatDomain
import Testing

@testable import ChatProviders

/// `ResponsesProvider.decodeWhole`: a response sent whole (`--no-stream`) is handed on as its
/// stream would be; a failed one, an error body and a body that is no response throw.
@Suite struct ResponsesWholeDecodingTests {
    /// What `body` gives: its events (reasoning pieces joined), or the error it threw.
    static func decode(_ body: String) -> (events: [ChatEvent], error: ChatError?) {
        var events: [ChatEvent] = []
        do throws(ChatError) {
            try ResponsesProvider().decodeWhole(Array(body.utf8)) { events.append($0) }
        } catch {
            return (ResponsesStreamDecoderTests.joined(events), error)
        }
        return (ResponsesStreamDecoderTests.joined(events), nil)
    }

    @Test func callsComeTogetherAfterTheTextWithTheToolCallsReason() {
        let body =
            #"{"status":"completed","error":null,"output":["#
            + #"{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"output_text","text":"Checking."}]},"#
            + #"{"type":"function_call","id":"fc_1","call_id":"call_1","name":"a__x","arguments":"{}"},"#
            + #"{"type":"function_call","id":"fc_2","call_id":"call_2","name":"b__y","arguments":"{\"n\":1}"}]}"#
        #expect(
            Self.decode(body).events == [
                .text("Checking."),
                .toolCalls([
                    ToolCall(id: "call_1", name: "a__x", arguments: .object([:])),
                    ToolCall(id: "call_2", name: "b__y", arguments: .object(["n": .number(1)])),
                ]),
                .finished(reason: "tool_calls"),
            ])
    }

    @Test func aRefusalIsTextAndAnIncompleteResponseIsLength() {
        let body =
            #"{"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"output":["#
            + #"{"type":"message","role":"assistant","content":[{"type":"refusal","refusal":"I can't help with that."}]}],"#
            + #""usage":{"input_tokens":5,"output_tokens":16,"total_tokens":21}}"#
        #expect(
            Self.decode(body).events == [
                .text("I can't help with that."), .finished(reason: "length"),
                .usage(TokenUsage(promptTokens: 5, completionTokens: 16, totalTokens: 21)),
            ])
    }

    @Test func twoReasoningItemsSummariesAreSeparatedByABlankLine() {
        let body =
            #"{"status":"completed","output":["#
            + #"{"type":"reasoning","summary":[{"type":"summary_text","text":"First."}]},"#
            + #"{"type":"reasoning","summary":[{"type":"summary_text","text":"Second."}],"encrypted_content":"ZW5j"},"#
            + #"{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Done."}]}]}"#
        let events = Self.decode(body).events
        let reasoning = events.compactMap { if case .reasoning(let text) = $0 { text } else { nil } }.joined()
        #expect(reasoning == "First.\n\nSecond.")
        #expect(events.contains(.thinking(.encryptedReasoning(summary: ["Second."], content: "ZW5j"))))
        #expect(!events.contains(.thinking(.encryptedReasoning(summary: ["First."], content: ""))))
    }

    @Test func aFailedResponseThrowsTheServersMessage() {
        let body =
            #"{"id":"resp_123","object":"response","status":"failed","#
            + #""error":{"code":"server_error","message":"The model failed to generate a response."},"output":[]}"#
        guard case .streamError(let message)? = Self.decode(body).error else {
            Issue.record("expected a stream error, got \(Self.decode(body))")
            return
        }
        #expect(message.hasPrefix("The model failed to generate a response."))
    }

    @Test func anErrorBodyThrowsItsMessage() {
        let body = #"{"error":{"message":"Overloaded","type":"server_error","param":null,"code":null}}"#
        #expect(Self.decode(body).error == .streamError(message: "Overloaded"))
    }

    @Test func aBodyThatIsNoResponseIsMalformed() {
        guard case .malformedResponse? = Self.decode(#"{"object":"list","data":[]}"#).error else {
            Issue.record("expected a malformed response")
            return
        }
    }
}
