import ChatTestSupport
import Foundation
import Testing

/// `--schema` with the anthropic provider, which has no `response_format`: the schema goes as
/// the one tool the model must call (`answer`), and that call's input, streamed, is the answer
/// on stdout, checked against the schema as any answer is. With thinking, which forbids forcing a
/// tool, one line before sending.
@Suite struct AnthropicSchemaCLITests {
    /// A Messages stream whose one block is a call of `answer` with `pieces` as its input.
    static func answerCall(_ pieces: [String]) -> [ServerStep] {
        var events = [
            #"{"type":"message_start","message":{"content":[],"usage":{"input_tokens":5,"output_tokens":1}}}"#,
            #"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"answer","input":{}}}"#,
        ]
        for piece in pieces {
            events.append(
                #"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":""#
                    + piece + #""}}"#)
        }
        events += [
            #"{"type":"content_block_stop","index":0}"#,
            #"{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":7}}"#,
            #"{"type":"message_stop"}"#,
        ]
        return [.head(status: 200, headers: [("Content-Type", "text/event-stream")], chunked: true)]
            + events.map { ServerStep.text("event: x\ndata: \($0)\n\n") } + [.end]
    }

    @Test func theSchemasAnswerIsTheForcedToolCallsInput() async throws {
        let server = try LoopbackServer { _, _ in
            Self.answerCall([#"{\"name\": \"Ann\","#, #" \"age\": 31}"#])
        }
        defer { server.stop() }
        let (chat, options) = try AnthropicCLITests.chat(for: server)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(options + ["--schema", "name, age int", "who is Ann?"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == #"{"name": "Ann", "age": 31}"# + "\n")
        #expect(result.stderr == "")
        let body = try #require(server.requests.first).bodyText
        #expect(body.contains(#""tool_choice":{"name":"answer","type":"tool"}"#), "\(body)")
        #expect(body.contains(#""name":"answer""#) && body.contains(#""input_schema":{"#))
        #expect(!body.contains("response_format"))
    }

    @Test func aMismatchedForcedAnswerIsCaughtAsAnyAnswer() async throws {
        let server = try LoopbackServer { _, _ in Self.answerCall([#"{\"name\": \"Ann\", \"age\": \"31\"}"#]) }
        defer { server.stop() }
        let (chat, options) = try AnthropicCLITests.chat(for: server)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(options + ["--schema", "name, age int", "hi"])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "chat: error: the answer does not match the schema at $.age: expected integer, got string\n")
    }

    @Test func aSchemaWithThinkingIsRefusedBeforeSending() async throws {
        let server = try LoopbackServer { _, _ in Self.answerCall(["{}"]) }
        defer { server.stop() }
        let (chat, options) = try AnthropicCLITests.chat(for: server)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(options + ["--thinking", "2048", "--schema", "name", "hi"])
        #expect(result.status != 0)
        #expect(result.stdout == "")
        #expect(
            result.stderr
                == "chat: error: the anthropic provider takes no schema together with thinking_budget: leave one of "
                + "them out\n")
        #expect(server.requests.isEmpty)
    }
}
