import ChatDomain
import Testing

@testable import ChatHTTP
@testable import ChatJSON
@testable import ChatProviders

/// Feeds `chunks` (each a chunk's JSON) and `[DONE]` to one `ChatStreamDecoder`.
private func decode(_ chunks: [String], done: Bool = true) throws -> [ChatEvent] {
    var decoder = ChatStreamDecoder()
    var events: [ChatEvent] = []
    for chunk in chunks + (done ? ["[DONE]"] : []) {
        try decoder.decode(SSEEvent(data: chunk)) { events.append($0) }
    }
    return events
}

/// A chunk whose delta carries `fragments` (each a `tool_calls` element's JSON).
private func chunk(_ fragments: [String], finish: String? = nil) -> String {
    let reason = finish.map { "\"\($0)\"" } ?? "null"
    return #"{"choices":[{"index":0,"delta":{"tool_calls":["# + fragments.joined(separator: ",")
        + #"]},"finish_reason":"# + reason + "}]}"
}

/// The string as a JSON string literal.
private func quoted(_ text: String) -> String {
    JSONValue.string(text).jsonText!
}

private let finishChunk = #"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#

@Suite("Tool call assembly")
struct ToolCallAssemblyTests {
    @Test("arguments split at every place come back whole, once, before the finish reason")
    func splitAnywhere() throws {
        let arguments = #"{"timezone": "Europe/Paris", "n": [1, 2.5], "s": "é\"\\"}"#
        let expected = try JSONParser.parse(arguments)
        let scalars = Array(arguments.unicodeScalars)
        for cut in 0...scalars.count {
            let first = String(String.UnicodeScalarView(scalars[..<cut]))
            let second = String(String.UnicodeScalarView(scalars[cut...]))
            let events = try decode([
                #"{"choices":[{"index":0,"delta":{"role":"assistant","content":null},"finish_reason":null}]}"#,
                chunk([
                    #"{"index":0,"id":"call_1","type":"function","function":{"name":"get_time","arguments":""}}"#
                ]),
                chunk([#"{"index":0,"function":{"arguments":"# + quoted(first) + "}}"]),
                chunk([#"{"index":0,"function":{"arguments":"# + quoted(second) + "}}"]),
                finishChunk,
            ])
            #expect(
                events == [
                    .toolCalls([ToolCall(id: "call_1", name: "get_time", arguments: expected)]),
                    .finished(reason: "tool_calls"),
                ], "cut at \(cut)")
        }
    }

    @Test("several calls interleaved by index come back whole, in index order")
    func interleaved() throws {
        let events = try decode([
            chunk([#"{"index":1,"id":"b","type":"function","function":{"name":"two","arguments":"{\"y\""}}"#]),
            chunk([#"{"index":0,"id":"a","type":"function","function":{"name":"one","arguments":""}}"#]),
            chunk([
                #"{"index":0,"function":{"arguments":"{\"x\":"}}"#, #"{"index":1,"function":{"arguments":":2}"}}"#,
            ]),
            chunk([#"{"index":0,"function":{"arguments":"1}"}}"#]),
            #"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}],"usage":null}"#,
        ])
        #expect(
            events == [
                .toolCalls([
                    ToolCall(id: "a", name: "one", arguments: .object(["x": .number(1)])),
                    ToolCall(id: "b", name: "two", arguments: .object(["y": .number(2)])),
                ]),
                .finished(reason: "tool_calls"),
            ])
    }

    @Test("text before the calls, empty and non-JSON arguments, usage after the finish")
    func textAndOddArguments() throws {
        let events = try decode([
            #"{"choices":[{"index":0,"delta":{"content":"Let me look."},"finish_reason":null}]}"#,
            chunk([#"{"index":0,"id":"a","type":"function","function":{"name":"now"}}"#]),
            chunk([#"{"index":1,"id":"b","type":"function","function":{"name":"bad","arguments":"{not json"}}"#]),
            finishChunk,
            #"{"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":4,"total_tokens":7}}"#,
        ])
        #expect(events.first == .text("Let me look."))
        #expect(
            events.dropFirst().first
                == .toolCalls([
                    ToolCall(id: "a", name: "now", arguments: .object([:])),
                    ToolCall(id: "b", name: "bad", arguments: .string("{not json")),
                ]))
        #expect(events.dropFirst(2).first == .finished(reason: "tool_calls"))
        #expect(events.count == 4)
    }

    @Test("a stream with calls and no finish reason sends them at [DONE]")
    func callsAtDone() throws {
        let events = try decode([chunk([#"{"index":0,"id":"a","function":{"name":"f","arguments":"{}"}}"#])])
        #expect(events == [.toolCalls([ToolCall(id: "a", name: "f", arguments: .object([:]))])])
    }

    @Test("calls without an index: a new id begins a new call")
    func noIndex() throws {
        let events = try decode(
            [
                chunk([#"{"id":"a","function":{"name":"f","arguments":"{\"a\":"}}"#]),
                chunk([#"{"function":{"arguments":"1}"}}"#]),
                chunk([#"{"id":"b","function":{"name":"g","arguments":"{}"}}"#]),
                finishChunk,
            ], done: false)
        #expect(
            events.first
                == .toolCalls([
                    ToolCall(id: "a", name: "f", arguments: .object(["a": .number(1)])),
                    ToolCall(id: "b", name: "g", arguments: .object([:])),
                ]))
    }

    @Test("an answer with no calls has no tool-call event")
    func noCalls() throws {
        let events = try decode([
            #"{"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}"#
        ])
        #expect(events == [.text("hi"), .finished(reason: "stop")])
    }

    @Test("a whole answer's calls, before its finish reason")
    func wholeAnswer() throws {
        let body = #"""
            {"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[
            {"id":"a","type":"function","function":{"name":"one","arguments":"{\"x\":1}"}},
            {"id":"b","type":"function","function":{"name":"two","arguments":"{}"}}]},
            "finish_reason":"tool_calls"}]}
            """#
        var events: [ChatEvent] = []
        try OpenAIProvider().decodeWhole(Array(body.utf8)) { events.append($0) }
        #expect(
            events == [
                .toolCalls([
                    ToolCall(id: "a", name: "one", arguments: .object(["x": .number(1)])),
                    ToolCall(id: "b", name: "two", arguments: .object([:])),
                ]),
                .finished(reason: "tool_calls"),
            ])
    }

    @Test("the answer's message gathers the calls as parts")
    func messageParts() {
        var message = ChatMessage(role: .assistant, content: "")
        let call = ToolCall(id: "a", name: "f", arguments: .object([:]))
        message.add(.text("x"))
        message.add(.toolCalls([call]))
        #expect(message.parts == [.text("x"), .toolCall(call)])
        #expect(message.toolCalls == [call])
    }
}
