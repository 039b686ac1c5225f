import ChatDomain
import ChatPresentation
import Foundation
import Testing

@testable import ChatConfig
@testable import ChatHistory
@testable import ChatJSON
@testable import ChatProviders
@testable import ChatSystem

/// `--schema`'s value read into a schema (the concise form's grammar, inline JSON, a file), the
/// request body that carries it, and the settings that store it.
@Suite struct ResponseSchemaTests {
    private func concise(_ text: String, multi: Bool = false) throws -> String {
        try #require(try ResponseSchemaReader.schema(text, multi: multi).schema.jsonText)
    }

    private func problem(_ text: String) -> SchemaProblem? {
        do throws(SchemaProblem) {
            _ = try ResponseSchemaReader.schema(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func theConciseFormIsAStrictObjectOfRequiredFields() throws {
        #expect(
            try concise("name, age int, bio: a one-sentence biography")
                == #"{"additionalProperties":false,"properties":{"age":{"type":"integer"},"#
                + #""bio":{"description":"a one-sentence biography","type":"string"},"name":{"type":"string"}},"#
                + #""required":["name","age","bio"],"type":"object"}"#)
        // Every type word; any case.
        #expect(
            try concise("a str, b string, c INT, d integer, e float, f number, g bool, h boolean")
                == #"{"additionalProperties":false,"properties":{"a":{"type":"string"},"b":{"type":"string"},"#
                + #""c":{"type":"integer"},"d":{"type":"integer"},"e":{"type":"number"},"f":{"type":"number"},"#
                + #""g":{"type":"boolean"},"h":{"type":"boolean"}},"required":["a","b","c","d","e","f","g","h"],"#
                + #""type":"object"}"#)
        // With newlines the fields are lines, so a description may hold commas; blank ones are skipped.
        #expect(
            try concise("title: short, plain\n\n  year int: when, roughly  \n")
                == #"{"additionalProperties":false,"properties":{"title":{"description":"short, plain","#
                + #""type":"string"},"year":{"description":"when, roughly","type":"integer"}},"#
                + #""required":["title","year"],"type":"object"}"#)
    }

    @Test func multiIsAnObjectWithAListOfItems() throws {
        #expect(
            try concise("name", multi: true)
                == #"{"additionalProperties":false,"properties":{"items":{"items":{"additionalProperties":false,"#
                + #""properties":{"name":{"type":"string"}},"required":["name"],"type":"object"},"type":"array"}},"#
                + #""required":["items"],"type":"object"}"#)
    }

    @Test func theConciseFormsMistakesAreNamedInOneLine() {
        let cases: [(String, SchemaProblem, String)] = [
            (
                " , ", .noFields,
                "--schema holds no field (the concise form is fields like 'name, age int, bio: a short biography')"
            ),
            (
                "name, age int big", .badField("age int big"),
                "--schema field \"age int big\" is not a name, a type and a description (the concise form is "
                    + "fields like 'name, age int, bio: a short biography')"
            ),
            (
                "1st", .badName("1st"),
                "--schema field name \"1st\" must be letters, digits, _ or -, starting with a letter or _"
            ),
            (
                "born date", .unknownType(field: "born", type: "date"),
                "--schema field born has type \"date\"; the types are str, int, float and bool"
            ),
            ("a, b, a int", .repeatedName("a"), "--schema names the field a twice"),
        ]
        for (text, expected, line) in cases {
            #expect(problem(text) == expected, "\(text)")
            #expect(ErrorWording.line(for: expected) == line)
        }
    }

    @Test func inlineJSONAndFilesAreSchemasAsTheyAre() throws {
        let inline = try ResponseSchemaReader.schema(#" {"type": "object", "properties": {"x": {"enum": [1, 2]}}}"#)
        #expect(inline.name == "response")
        #expect(inline.schema["properties"]?["x"]?["enum"] == .array([.number(1), .number(2)]))
        #expect(
            problem(#"{"type": "#)
                == .notJSON(.inline, reason: "line 1, column 10: the text ends where a value should be"))
        let path = NSTemporaryDirectory() + "schema-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try #"{"type": "object", "required": ["a"]}"#.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try ResponseSchemaReader.schema(path).schema["required"] == .array([.string("a")]))
        try "[1]".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(problem(path) == .notAnObject(.file(path)))
        #expect(problem("/nowhere/s.json") == .unreadable(path: "/nowhere/s.json", reason: "no such file"))
    }

    @Test func theRequestCarriesItAsAStrictJSONSchemaResponseFormat() throws {
        let schema = try ResponseSchemaReader.schema("n int")
        let settings = ChatSettings(model: "m", stream: false, responseSchema: schema)
        let request = ChatRequest(messages: [ChatMessage(role: .user, content: "Hi")], settings: settings)
        let body = String(
            decoding: try #require(ChatCompletionRequestDTO(request, includeUsage: false).jsonBytes), as: UTF8.self)
        #expect(
            body
                == #"{"messages":[{"content":"Hi","role":"user"}],"model":"m","response_format":{"json_schema":"#
                + #"{"name":"response","schema":{"additionalProperties":false,"properties":{"n":{"type":"integer"}},"#
                + #""required":["n"],"type":"object"},"strict":true},"type":"json_schema"},"stream":false}"#)
        // Without one, nothing is added.
        var plain = request
        plain.settings.responseSchema = nil
        let without = String(
            decoding: try #require(ChatCompletionRequestDTO(plain, includeUsage: false).jsonBytes), as: UTF8.self)
        #expect(without == #"{"messages":[{"content":"Hi","role":"user"}],"model":"m","stream":false}"#)
    }

    @Test func theStoredSettingsKeepItAndOldRowsHaveNone() throws {
        let schema = ResponseSchema(name: "person", schema: .object(["type": .string("object")]))
        let settings = ChatSettings(model: "m", sampling: [.temperature: .number(0.5)], responseSchema: schema)
        let stored = try #require(StoredSettingsDTO(settings).jsonBytes)
        #expect(
            String(decoding: stored, as: UTF8.self)
                == #"{"response_schema":{"name":"person","schema":{"type":"object"}},"temperature":0.5}"#)
        let read = try #require(StoredSettingsDTO(jsonBytes: stored))
        #expect(read.applied(to: ChatSettings(model: "m")).responseSchema == schema)
        let old = try #require(StoredSettingsDTO(jsonBytes: Array(#"{"temperature":0.5}"#.utf8)))
        #expect(old.applied(to: ChatSettings(model: "m")).responseSchema == nil)
        #expect(
            String(decoding: try #require(StoredSettingsDTO(ChatSettings(model: "m")).jsonBytes), as: UTF8.self) == "{}"
        )
    }

    @Test func anAnswerThatIsNotJSONIsAMismatchAtTheTop() throws {
        let schema = try ResponseSchemaReader.schema("name")
        let mismatch = try #require(ResponseSchemaReader.firstMismatch(inAnswer: "Sure! Here it is.", against: schema))
        #expect(mismatch.path == "$")
        guard case .notJSON = mismatch.problem else {
            Issue.record("\(mismatch)")
            return
        }
        #expect(ResponseSchemaReader.firstMismatch(inAnswer: #" {"name": "x"} "#, against: schema) == nil)
    }
}
