import ChatDomain
import Foundation
import Testing

@testable import ChatConfig
@testable import ChatHistory
@testable import ChatJSON
@testable import ChatPresentation
@testable import ChatProviders
@testable import ChatTestSupport

/// The request body as the repository sends it.
private func encodedBody(_ request: ChatRequest, includeUsage: Bool) throws -> String {
    let dto = ChatCompletionRequestDTO(request, includeUsage: includeUsage)
    return String(decoding: try #require(dto.jsonBytes), as: UTF8.self)
}

private let conversation = [
    ChatMessage(role: .system, content: "Be brief."),
    ChatMessage(role: .user, content: "Hi"),
    ChatMessage(role: .assistant, content: "Hello!"),
    ChatMessage(role: .user, content: "Bye"),
]

private let conversationJSON =
    #"[{"content":"Be brief.","role":"system"},{"content":"Hi","role":"user"},"#
    + #"{"content":"Hello!","role":"assistant"},{"content":"Bye","role":"user"}]"#

struct RequestEncodingCase: Sendable, CustomTestStringConvertible {
    let name: String
    let settings: ChatSettings
    let includeUsage: Bool
    let expected: String

    init(_ name: String, _ settings: ChatSettings, includeUsage: Bool, _ expected: String) {
        self.name = name
        self.settings = settings
        self.includeUsage = includeUsage
        self.expected = expected
    }

    var testDescription: String { name }
}

private let requestCases: [RequestEncodingCase] = [
    RequestEncodingCase(
        "streaming with usage asks for the usage chunk",
        ChatSettings(model: "gpt-4o-mini", stream: true), includeUsage: true,
        #"{"messages":\#(conversationJSON),"model":"gpt-4o-mini","stream":true,"#
            + #""stream_options":{"include_usage":true}}"#),
    RequestEncodingCase(
        "streaming without usage has no stream_options",
        ChatSettings(model: "gpt-4o-mini", stream: true), includeUsage: false,
        #"{"messages":\#(conversationJSON),"model":"gpt-4o-mini","stream":true}"#),
    RequestEncodingCase(
        "not streaming never has stream_options, even when usage is asked for",
        ChatSettings(model: "gpt-4o-mini", stream: false), includeUsage: true,
        #"{"messages":\#(conversationJSON),"model":"gpt-4o-mini","stream":false}"#),
    RequestEncodingCase(
        "temperature and max_tokens are sent when set",
        ChatSettings(
            model: "llama3", sampling: [.temperature: .number(0.7), .maxTokens: .wholeNumber(256)], stream: false),
        includeUsage: false,
        #"{"max_tokens":256,"messages":\#(conversationJSON),"model":"llama3","stream":false,"temperature":0.7}"#),
    RequestEncodingCase(
        "a zero temperature is sent, not dropped",
        ChatSettings(model: "llama3", sampling: [.temperature: .number(0)], stream: true), includeUsage: true,
        #"{"messages":\#(conversationJSON),"model":"llama3","stream":true,"#
            + #""stream_options":{"include_usage":true},"temperature":0}"#),
    RequestEncodingCase(
        "top_p is sent when set, a zero too",
        ChatSettings(model: "m", sampling: [.topP: .number(0)], stream: true), includeUsage: false,
        #"{"messages":\#(conversationJSON),"model":"m","stream":true,"top_p":0}"#),
    RequestEncodingCase(
        "max_tokens alone is sent without temperature",
        ChatSettings(model: "m", sampling: [.maxTokens: .wholeNumber(1)], stream: true), includeUsage: false,
        #"{"max_tokens":1,"messages":\#(conversationJSON),"model":"m","stream":true}"#),
]

@Suite("Request encoding")
struct RequestEncodingTests {
    @Test("a request encodes to the exact body, keys sorted", arguments: requestCases)
    func requestEncodesExactly(_ testCase: RequestEncodingCase) throws {
        let request = ChatRequest(messages: conversation, settings: testCase.settings)
        #expect(try encodedBody(request, includeUsage: testCase.includeUsage) == testCase.expected)
    }

    @Test("message text is escaped as JSON, slashes and non-ASCII left as they are")
    func messageTextIsEscaped() throws {
        let request = ChatRequest(
            messages: [ChatMessage(role: .user, content: "a/b \"quoted\"\n\ttab \\ é 😀")],
            settings: ChatSettings(model: "org/model", stream: false))
        #expect(
            try encodedBody(request, includeUsage: false)
                == #"{"messages":[{"content":"a/b \"quoted\"\n\ttab \\ é 😀","role":"user"}],"#
                + #""model":"org/model","stream":false}"#)
    }

    @Test("an empty conversation encodes an empty messages array")
    func emptyConversationEncodes() throws {
        let request = ChatRequest(messages: [], settings: ChatSettings(model: "m", stream: false))
        #expect(try encodedBody(request, includeUsage: false) == #"{"messages":[],"model":"m","stream":false}"#)
    }

    @Test("the DTO keeps roles, contents and settings field for field")
    func dtoMapsFieldForField() {
        let request = ChatRequest(
            messages: conversation,
            settings: ChatSettings(
                model: "x", sampling: [.temperature: .number(1.5), .maxTokens: .wholeNumber(9)], stream: true))
        let dto = ChatCompletionRequestDTO(request, includeUsage: true)
        #expect(dto.model == "x")
        #expect(dto.messages.map(\.role) == ["system", "user", "assistant", "user"])
        #expect(dto.messages.map(\.content) == [.text("Be brief."), .text("Hi"), .text("Hello!"), .text("Bye")])
        #expect(dto.stream)
        #expect(dto.stream_options == .init(include_usage: true))
        #expect(dto.sampling == [.temperature: .number(1.5), .maxTokens: .wholeNumber(9)])
    }

    @Test("a message with images is a text part and an image_url part per image, a data: URL each")
    func imagesGoAsImageURLParts() throws {
        let png = ImageAttachment(path: "/a.png", mimeType: "image/png", byteCount: 3, sha256: "x", data: [1, 2, 3])
        let webp = ImageAttachment(path: "/b.webp", mimeType: "image/webp", byteCount: 1, sha256: "y", data: [0xFF])
        var gone = png
        gone.data = nil
        gone.path = "/gone.png"
        let request = ChatRequest(
            messages: [
                ChatMessage(role: .user, content: "what are these?", images: [png, webp, gone]),
                ChatMessage(role: .assistant, content: "two images"),
            ], settings: ChatSettings(model: "m", stream: false))
        #expect(
            try encodedBody(request, includeUsage: false)
                == #"{"messages":[{"content":[{"text":"what are these?","type":"text"},"#
                + #"{"image_url":{"url":"data:image/png;base64,AQID"},"type":"image_url"},"#
                + #"{"image_url":{"url":"data:image/webp;base64,/w=="},"type":"image_url"},"#
                + #"{"text":"[image /gone.png is no longer available]","type":"text"}],"role":"user"},"#
                + #"{"content":"two images","role":"assistant"}],"model":"m","stream":false}"#)
    }

    @Test("a character to escape is found wherever it falls among the eight bytes read at a time")
    func escapesAreFoundAtEveryPosition() throws {
        let plain = "abcdefghijklmnopqrstuvwxyz0123456789"
        for special in ["\"", "\\", "\n", "\u{0}", "\u{1F}", "é", "🎉"] {
            for position in 0...plain.count {
                var text = plain
                text.insert(contentsOf: special, at: text.index(text.startIndex, offsetBy: position))
                let content = String(text.prefix(position + 9))
                let dto = ChatCompletionRequestDTO(
                    model: "m", messages: [.init(role: "user", content: .text(content))], stream: true)
                #expect(
                    dto.jsonBytes.map { String(decoding: $0, as: UTF8.self) }
                        == #"{"messages":[{"content":"# + (try foundation(content)) + #","role":"user"}],"#
                        + #""model":"m","stream":true}"#, "\(text.debugDescription)")
            }
        }
    }

    @Test("strings and numbers are written as Foundation's encoder writes them, in the layout it wrote")
    func theBodyIsWrittenAsFoundationWritesIt() throws {
        let every = String((0..<128).map { Character(Unicode.Scalar(UInt8($0))) })
        let texts = [
            "", "plain", every, "quotes \" and \\ backslashes / slashes", "wörld 🎉 中文 \u{2028}\u{2029}",
            "\u{7F}\u{80}\u{FEFF}\u{10FFFF}", String(repeating: "long line ", count: 5_000),
        ]
        let numbers: [Double?] = [nil, 0, 1, 2, 0.7, 0.1, 1.5, 0.000_01, 1e-7, 123_456_789.125, 1.0 / 3]
        for (index, text) in texts.enumerated() {
            let temperature = numbers[index % numbers.count]
            let topP = numbers[(index + 3) % numbers.count]
            let maxTokens = index % 2 == 0 ? index * 1000 - 1 : nil
            var sampling = SamplingValues()
            sampling[.temperature] = temperature.map(SamplingValue.number)
            sampling[.topP] = topP.map(SamplingValue.number)
            sampling[.maxTokens] = maxTokens.map(SamplingValue.wholeNumber)
            let includeUsage: Bool? = index % 3 == 0 ? index % 2 == 0 : nil
            let dto = ChatCompletionRequestDTO(
                model: text.isEmpty ? "m" : text,
                messages: texts.map { .init(role: "user", content: .text($0 + text)) } + [
                    .init(
                        role: "user",
                        content: .parts([
                            .init(type: "text", text: text),
                            .init(type: "image_url", image_url: .init(url: "data:image/png;base64,\(text)")),
                        ]))
                ],
                stream: index % 2 == 0, stream_options: includeUsage.map { .init(include_usage: $0) },
                sampling: sampling)
            var expected = "{"
            if let maxTokens { expected += #""max_tokens":\#(maxTokens),"# }
            expected += #""messages":["#
            for other in texts {
                expected += #"{"content":\#(try foundation(other + text)),"role":"user"},"#
            }
            expected +=
                #"{"content":[{"text":\#(try foundation(text)),"type":"text"},"#
                + #"{"image_url":{"url":\#(try foundation("data:image/png;base64,\(text)"))},"type":"image_url"}],"#
                + #""role":"user"}],"#
            expected += #""model":\#(try foundation(text.isEmpty ? "m" : text)),"stream":\#(index % 2 == 0)"#
            if let includeUsage { expected += #","stream_options":{"include_usage":\#(includeUsage)}"# }
            if let temperature { expected += #","temperature":\#(try foundation(temperature))"# }
            if let topP { expected += #","top_p":\#(try foundation(topP))"# }
            expected += "}"
            let written = try #require(dto.jsonBytes)
            #expect(String(decoding: written, as: UTF8.self) == expected)
        }
        for number in numbers.compactMap({ $0 }) + [-0.0, 2e-300, 9.007_199_254_740_993e15, 1e21] {
            let dto = ChatCompletionRequestDTO(model: "m", stream: true, sampling: [.temperature: .number(number)])
            #expect(
                dto.jsonBytes.map { String(decoding: $0, as: UTF8.self) }
                    == #"{"messages":[],"model":"m","stream":true,"temperature":\#(try foundation(number))}"#,
                "\(number)")
        }
        let infinite = ChatCompletionRequestDTO(model: "m", stream: true, sampling: [.temperature: .number(.infinity)])
        #expect(infinite.jsonBytes == nil)
    }
}

/// `value` as Foundation's encoder writes it (keys sorted, slashes not escaped): what chat's writer
/// must match, byte for byte.
private func foundation<Value: Encodable>(_ value: Value) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}
