import ChatDomain
import Testing

@testable import ChatJSON
@testable import ChatProviders

/// `JSONValue.jsonText`: the one writer (`JSONText`) writing any JSON value on one line, as
/// `--json`'s lines are written; what it writes reads back the same.
@Suite struct JSONValueTextTests {
    @Test func writesCompactlyWithSortedKeysAndEscapes() {
        let value = JSONValue.object([
            "type": .string("delta"), "text": .string("a \"quote\"\nand \u{1B}[31m é"),
            "a\"key": .array([.null, .bool(true), .number(3), .number(1.5), .object([:])]),
        ])
        #expect(
            value.jsonText
                == #"{"a\"key":[null,true,3,1.5,{}],"text":"a \"quote\"\nand \u001b[31m é","type":"delta"}"#)
    }

    @Test func readsBackAsItWasWritten() throws {
        let value = JSONValue.object([
            "n": .number(-0.25), "big": .number(12_345_678_901), "s": .string("\t/\\"),
            "nested": .object(["list": .array([.string(""), .number(0)])]),
        ])
        let text = try #require(value.jsonText)
        #expect(!text.contains("\n"))
        #expect(try JSONParser.parse(text) == value)
    }

    @Test func aNumberJSONCannotHoldWritesNothing() {
        #expect(JSONValue.array([.number(.nan)]).jsonText == nil)
        #expect(JSONValue.object(["x": .number(.infinity)]).jsonText == nil)
    }

    @Test func usageReadsTheCachedTokens() throws {
        let usage = try #require(
            try JSONReader.read(
                UsageDTO.self,
                from: #"{"prompt_tokens":9,"completion_tokens":2,"prompt_tokens_details":{"cached_tokens":4}}"#))
        #expect(usage.toDomain() == TokenUsage(promptTokens: 9, completionTokens: 2, cacheReadTokens: 4))
        let plain = try #require(try JSONReader.read(UsageDTO.self, from: #"{"prompt_tokens":9}"#))
        #expect(plain.toDomain()?.cacheReadTokens == nil)
    }
}
