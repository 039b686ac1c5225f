import ChatDomain
import Testing

@testable import ChatData

/// The request body as the repository sends it.
private func encodedBody(_ request: ChatRequest, includeUsage: Bool) throws -> String {
    let dto = ChatCompletionRequestDTO(request, includeUsage: includeUsage)
    return String(decoding: try JSON.encoder().encode(dto), as: UTF8.self)
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
        ChatSettings(model: "llama3", temperature: 0.7, maxTokens: 256, stream: false), includeUsage: false,
        #"{"max_tokens":256,"messages":\#(conversationJSON),"model":"llama3","stream":false,"temperature":0.7}"#),
    RequestEncodingCase(
        "a zero temperature is sent, not dropped",
        ChatSettings(model: "llama3", temperature: 0, stream: true), includeUsage: true,
        #"{"messages":\#(conversationJSON),"model":"llama3","stream":true,"#
            + #""stream_options":{"include_usage":true},"temperature":0}"#),
    RequestEncodingCase(
        "top_p is sent when set, a zero too",
        ChatSettings(model: "m", topP: 0, stream: true), includeUsage: false,
        #"{"messages":\#(conversationJSON),"model":"m","stream":true,"top_p":0}"#),
    RequestEncodingCase(
        "max_tokens alone is sent without temperature",
        ChatSettings(model: "m", maxTokens: 1, stream: true), includeUsage: false,
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
            messages: conversation, settings: ChatSettings(model: "x", temperature: 1.5, maxTokens: 9, stream: true))
        let dto = ChatCompletionRequestDTO(request, includeUsage: true)
        #expect(dto.model == "x")
        #expect(dto.messages.map(\.role) == ["system", "user", "assistant", "user"])
        #expect(dto.messages.map(\.content) == [.text("Be brief."), .text("Hi"), .text("Hello!"), .text("Bye")])
        #expect(dto.stream)
        #expect(dto.stream_options == .init(include_usage: true))
        #expect(dto.temperature == 1.5)
        #expect(dto.max_tokens == 9)
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
}
