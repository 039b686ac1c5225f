import ChatTestSupport
import Foundation
import Testing

/// `--schema`: the answer must be JSON matching a schema, asked of the server and checked.
@Suite struct SchemaCommandTests {
    private func answering(_ text: String) throws -> LoopbackServer {
        try LoopbackServer { _, _ in ServerStep.sse([ServerStep.chatChunk(text), ServerStep.finishChunk()]) }
    }

    private func body(_ server: LoopbackServer, _ index: Int = 0) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(server.request(index).body)) as? [String: Any])
    }

    @Test func aMatchingAnswerIsPrintedAsItCameAndTheRequestAskedForIt() async throws {
        let server = try answering(#"{"name": "Ann", "age": 31, "bio": "Writes."}"#)
        defer { server.stop() }
        let result = try await ChatBinary().run([
            "--base-url", server.baseURL, "--schema", "name, age int, bio: a one-sentence biography", "who is Ann?",
        ])
        #expect(result.status == 0)
        #expect(result.stdout == #"{"name": "Ann", "age": 31, "bio": "Writes."}"# + "\n")
        #expect(result.stderr == "")
        let format = try #require(try body(server)["response_format"] as? [String: Any])
        #expect(format["type"] as? String == "json_schema")
        let jsonSchema = try #require(format["json_schema"] as? [String: Any])
        #expect(jsonSchema["name"] as? String == "response")
        #expect(jsonSchema["strict"] as? Bool == true)
        let schema = try #require(jsonSchema["schema"] as? [String: Any])
        #expect(schema["required"] as? [String] == ["name", "age", "bio"])
        #expect(schema["additionalProperties"] as? Bool == false)
        let bio = (schema["properties"] as? [String: Any])?["bio"] as? [String: Any]
        #expect(bio?["description"] as? String == "a one-sentence biography")
    }

    @Test func aMismatchedAnswerExits1WithOneLineNamingTheFirstMismatch() async throws {
        let server = try answering(#"{"name": "Ann", "age": "31"}"#)
        defer { server.stop() }
        let result = try await ChatBinary().run(["--base-url", server.baseURL, "--schema", "name, age int", "hi"])
        #expect(result.status == 1)
        #expect(result.stdout == #"{"name": "Ann", "age": "31"}"# + "\n")
        #expect(
            result.stderr
                == "chat: error: the answer does not match the schema at $.age: expected integer, got string\n")
    }

    @Test func aServerThatIgnoresTheSchemaIsCaught() async throws {
        let server = try answering("Sure! Ann is 31.")
        defer { server.stop() }
        let result = try await ChatBinary().run(["--base-url", server.baseURL, "--schema", "name, age int", "hi"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("chat: error: the answer is not JSON (line 1, column 1: "))
        #expect(result.stderr.hasSuffix("; the server may have ignored the schema\n"))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test func aServerThatRejectsResponseFormatIsSaidInOneLine() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.json(
                status: 400,
                #"{"error":{"message":"Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.","type":"invalid_request_error"}}"#
            )
        }
        defer { server.stop() }
        let result = try await ChatBinary().run(["--base-url", server.baseURL, "--schema", "name", "hi"])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "chat: error: 400 bad request: Invalid parameter: 'response_format' of type 'json_schema' is not "
                + "supported with this model. (this server does not take a JSON schema; try without --schema)\n")
        #expect(result.stdout == "")
    }

    @Test func aBadSchemaIsAUsageErrorAndNothingIsSent() async throws {
        let server = try answering("{}")
        defer { server.stop() }
        let chat = ChatBinary()
        let result = try await chat.run(["--base-url", server.baseURL, "--schema", "name, born date", "hi"])
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "chat: error: --schema field born has type \"date\"; the types are str, int, float and bool\n")
        let listing = try await chat.run(["--schema", "name", "--list"])
        #expect(listing.status == 2)
        #expect(listing.stderr == "chat: error: --schema goes with a prompt or -i\n")
        #expect(server.requests.isEmpty)
    }

    @Test func withJSONAMismatchIsAnErrorLineAfterDone() async throws {
        let server = try answering(#"{"items": [{"name": 1}]}"#)
        defer { server.stop() }
        let result = try await ChatBinary().run([
            "--base-url", server.baseURL, "--json", "--schema-multi", "name", "list people",
        ])
        #expect(result.status == 1)
        let events = try result.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(events.map { $0["type"] as? String } == ["start", "delta", "done", "error"])
        #expect(events.last?["kind"] as? String == "schema_mismatch")
        let message = "the answer does not match the schema at $.items[0].name: expected string, got integer"
        #expect(events.last?["message"] as? String == message)
        #expect(result.stderr == "chat: error: \(message)\n")
    }

    @Test func aContinuedConversationKeepsItsSchemaAndTheREPLSetsAndClearsIt() async throws {
        let server = try answering(#"{"name": "Ann"}"#)
        defer { server.stop() }
        let chat = ChatBinary()
        #expect(try await chat.run(["--base-url", server.baseURL, "--schema", "name", "first"]).status == 0)
        #expect(try await chat.run(["--base-url", server.baseURL, "-c", "again"]).status == 0)
        #expect(try body(server, 1)["response_format"] != nil)

        let repl = try await chat.run(
            ["--base-url", server.baseURL, "-i"],
            input: "/schema name, age int\nhello\n/schema\n/schema off\nbye\n/schema\n")
        #expect(repl.stderr.contains("answers must be JSON: an object with age, name\n"))
        #expect(repl.stderr.contains("chat: error: the answer does not match the schema: \"age\" is missing\n"))
        #expect(repl.stdout.contains("an object with age, name\n"))
        #expect(repl.stdout.hasSuffix("(answers in any form)\n"))
        #expect(try body(server, 2)["response_format"] != nil)
        #expect(try body(server, 3)["response_format"] == nil)
    }

    @Test func aBadSchemaInTheREPLIsNamedAsTheCommand() async throws {
        let server = try answering("fine")
        defer { server.stop() }
        let repl = try await ChatBinary().run(["--base-url", server.baseURL, "-i"], input: "/schema name, age in\n")
        #expect(repl.stderr.contains("/schema field age has type \"in\"; the types are str, int, float and bool\n"))
        #expect(!repl.stderr.contains("--schema"))
    }
}
