import Testing

@testable import ChatConfig
@testable import ChatDomain
@testable import ChatJSON
@testable import ChatPresentation

/// `JSONParser`: strict about the syntax, with the line and column of an error; lenient about
/// meaning (a repeated key's last value, U+FFFD for lone surrogates and bytes that are not UTF-8).
@Suite("JSON parser")
struct JSONParserTests {
    @Test(
        "values",
        arguments: [
            ("null", JSONValue.null), ("true", .bool(true)), ("false", .bool(false)), ("0", .number(0)),
            ("-12.5e1", .number(-125)), ("1E+2", .number(100)), ("1e400", .number(.infinity)),
            (#""a\"b\\c\/\b\f\n\r\t\u00e9\u20AC\ud83c\udf89""#, .string("a\"b\\c/\u{8}\u{C}\n\r\té€🎉")),
            ("[]", .array([])), ("[1, [2], {}]", .array([.number(1), .array([.number(2)]), .object([:])])),
            (#" { "a" : 1 , "b" : [ null ] } "#, .object(["a": .number(1), "b": .array([.null])])),
            ("\u{FEFF}{}", .object([:])),
        ])
    func values(_ text: String, _ expected: JSONValue) throws {
        #expect(try JSONParser.parse(text) == expected)
    }

    @Test("a key that appears twice takes its last value, as the OpenAI SDKs' parsers do")
    func repeatedKeyTakesTheLastValue() throws {
        #expect(try JSONParser.parse(#"{"a":1,"b":2,"a":3}"#) == .object(["a": .number(3), "b": .number(2)]))
        #expect(try JSONParser.parse(#"{"a":{"x":1},"a":null}"#) == .object(["a": .null]))
        // An escaped key is the same key.
        #expect(try JSONParser.parse(#"{"a":1,"\u0061":2}"#) == .object(["a": .number(2)]))
    }

    @Test(
        "a lone or reversed surrogate escape is U+FFFD",
        arguments: [
            (#""\ud800""#, "\u{FFFD}"), (#""\udc00""#, "\u{FFFD}"), (#""x\ud800y""#, "x\u{FFFD}y"),
            (#""\udc00\ud800""#, "\u{FFFD}\u{FFFD}"), (#""\ud800\u0041""#, "\u{FFFD}A"),
            (#""\ud800\ud83d\ude00""#, "\u{FFFD}😀"), (#""\ud800\n""#, "\u{FFFD}\n"),
            (#""\uD83D\uDE00""#, "😀"),
        ])
    func surrogates(_ text: String, _ expected: String) throws {
        #expect(try JSONParser.parse(text) == .string(expected))
    }

    @Test("bytes that are not UTF-8 are U+FFFD")
    func invalidUTF8() throws {
        #expect(try JSONParser.parse([0x22, 0x61, 0xFF, 0x62, 0xC3, 0x22]) == .string("a\u{FFFD}b\u{FFFD}"))
    }

    @Test(
        "syntax errors name the line, the column and the problem",
        arguments: [
            ("{\"a\": 1,}", 1, 9, "a comma before }"),
            ("[1, 2,]", 1, 7, "a comma before ]"),
            ("{\n  \"a\": 1\n  \"b\": 2\n}", 3, 3, "a comma or } expected after the value of \"a\""),
            ("{\"a\" 1}", 1, 6, "a colon expected after the key \"a\""),
            ("{'a': 1}", 1, 2, "a key in double quotes expected"),
            ("{\"a\": 'x'}", 1, 7, "a single quote (strings take double quotes) where a value should be"),
            ("{\"a\": tru}", 1, 7, "not a JSON value (true, false, null, a number, a string, an array or an object)"),
            ("{\"a\": 01}", 1, 8, "a number with a leading zero"),
            ("{\"a\": 1.}", 1, 9, "a digit expected after the decimal point"),
            ("{\"a\": \"x\ny\"}", 1, 9, "a control character in a string (write it as an escape, e.g. \\n)"),
            (
                "{\"a\": \"\\x\"}", 1, 8,
                "an invalid escape in a string (\\u takes 4 hex digits; the others are \\\" \\\\ \\/ \\b \\f \\n \\r \\t)"
            ),
            ("{\"a\": \"é", 1, 7, "a string that does not end (a \" is missing)"),
            ("{\"a\": [1, 2}", 1, 12, "a comma or ] expected after an array element"),
            ("{\"a\": 1", 1, 8, "the text ends inside an object (a } is missing)"),
            ("{} {}", 1, 4, "text after the JSON value"),
            ("// a comment\n{}", 1, 1, "a comment (JSON has none) where a value should be"),
            ("", 1, 1, "the text ends where a value should be"),
            ("{\"é\": 1,\r\n \"b\" 2}", 2, 6, "a colon expected after the key \"b\""),
        ])
    func syntaxErrors(_ text: String, _ line: Int, _ column: Int, _ problem: String) {
        #expect(throws: JSONSyntaxError(line: line, column: column, problem: problem)) {
            try JSONParser.parse(text)
        }
    }

    @Test("nesting deeper than the limit is an error, not a crash")
    func deepNesting() throws {
        let ok = String(repeating: "[", count: JSONParser.maxDepth) + String(repeating: "]", count: JSONParser.maxDepth)
        #expect((try? JSONParser.parse(ok)) != nil)
        let deep = "[" + ok + "]"
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(deep) }
        #expect(ReferenceJSON.parse(Array(ok.utf8)) != nil)
        #expect(ReferenceJSON.parse(Array(deep.utf8)) == nil)
    }
}
