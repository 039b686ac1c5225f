import ChatDomain
import Testing

/// `SchemaValidator`: the first place a value does not match its schema.
@Suite struct SchemaValidatorTests {
    private let person = JSONValue.object([
        "type": .string("object"),
        "properties": .object([
            "name": .object(["type": .string("string")]),
            "age": .object(["type": .string("integer")]),
            "colour": .object(["enum": .array([.string("red"), .string("green")])]),
            "pets": .object([
                "type": .string("array"),
                "items": .object([
                    "type": .string("object"),
                    "properties": .object(["kind": .object(["type": .array([.string("string"), .string("null")])])]),
                    "required": .array([.string("kind")]),
                ]),
            ]),
        ]),
        "required": .array([.string("name"), .string("age")]),
        "additionalProperties": .bool(false),
    ])

    private func mismatch(_ value: JSONValue) -> SchemaMismatch? {
        SchemaValidator.firstMismatch(in: value, against: person)
    }

    @Test func aMatchingValueHasNoMismatch() {
        #expect(mismatch(.object(["name": .string("Ann"), "age": .number(3)])) == nil)
        #expect(
            mismatch(
                .object([
                    "name": .string("Ann"), "age": .number(3.0), "colour": .string("red"),
                    "pets": .array([.object(["kind": .string("cat")]), .object(["kind": .null])]),
                ])) == nil)
        // `true` and `{}` allow anything.
        #expect(SchemaValidator.firstMismatch(in: .array([.null]), against: .object([:])) == nil)
        #expect(SchemaValidator.firstMismatch(in: .string("x"), against: .bool(true)) == nil)
    }

    @Test func eachKindOfMismatchIsNamedWithItsPath() {
        #expect(
            mismatch(.array([])) == SchemaMismatch(path: "$", problem: .type(expected: ["object"], found: "array")))
        #expect(mismatch(.object(["name": .string("Ann")])) == SchemaMismatch(path: "$", problem: .missing("age")))
        #expect(
            mismatch(.object(["name": .string("Ann"), "age": .number(3.5)]))
                == SchemaMismatch(path: "$.age", problem: .type(expected: ["integer"], found: "number")))
        #expect(
            mismatch(.object(["name": .string("Ann"), "age": .number(3), "extra": .bool(true)]))
                == SchemaMismatch(path: "$", problem: .notAllowed("extra")))
        #expect(
            mismatch(.object(["name": .string("Ann"), "age": .number(3), "colour": .string("pink")]))
                == SchemaMismatch(
                    path: "$.colour", problem: .notOneOf([.string("red"), .string("green")], found: .string("pink"))))
        #expect(
            mismatch(
                .object([
                    "name": .string("Ann"), "age": .number(3),
                    "pets": .array([.object(["kind": .string("cat")]), .object(["kind": .number(1)])]),
                ]))
                == SchemaMismatch(
                    path: "$.pets[1].kind", problem: .type(expected: ["string", "null"], found: "integer")))
        #expect(
            mismatch(.object(["name": .string("Ann"), "age": .number(3), "pets": .array([.object([:])])]))
                == SchemaMismatch(path: "$.pets[0]", problem: .missing("kind")))
    }

    @Test func alternativesMatchWhenAnyDoes() {
        let either = JSONValue.object([
            "anyOf": .array([.object(["type": .string("string")]), .object(["const": .number(7)])])
        ])
        #expect(SchemaValidator.firstMismatch(in: .string("x"), against: either) == nil)
        #expect(SchemaValidator.firstMismatch(in: .number(7), against: either) == nil)
        #expect(
            SchemaValidator.firstMismatch(in: .bool(true), against: either)
                == SchemaMismatch(path: "$", problem: .noAlternative))
    }

    @Test func anOddMemberNameIsQuotedInThePath() {
        let schema = JSONValue.object([
            "properties": .object(["a b": .object(["type": .string("string")])])
        ])
        #expect(
            SchemaValidator.firstMismatch(in: .object(["a b": .null]), against: schema)
                == SchemaMismatch(path: "$[\"a b\"]", problem: .type(expected: ["string"], found: "null")))
    }
}
