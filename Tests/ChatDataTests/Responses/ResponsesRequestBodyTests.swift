import ChatDomain
import Testing

@testable import ChatProviders

/// The body of `POST /responses` (`ResponsesRequestDTO` and its `jsonBytes`) for a plain
/// conversation: stateless, system messages as `instructions`, the turns as input items,
/// sampling, images, tools and a schema. Keys are written sorted, so whole bodies are compared
/// as text.
@Suite struct ResponsesRequestBodyTests {
    /// The body for `request`, as the provider writes it.
    static func body(_ request: ChatRequest, includeEncrypted: Bool = true, showsReasoning: Bool = true) throws
        -> String
    {
        let dto = try ResponsesRequestDTO(request, includeEncrypted: includeEncrypted, showsReasoning: showsReasoning)
        return String(decoding: try #require(dto.jsonBytes), as: UTF8.self)
    }

    static let conversation = [
        ChatMessage(role: .system, content: "Be brief."), ChatMessage(role: .user, content: "Hi"),
        ChatMessage(role: .assistant, content: "Hello."), ChatMessage(role: .user, content: "Bye"),
    ]

    static let conversationInput =
        #""input":[{"content":[{"text":"Hi","type":"input_text"}],"role":"user","type":"message"},"#
        + #"{"content":[{"text":"Hello.","type":"output_text"}],"role":"assistant","type":"message"},"#
        + #"{"content":[{"text":"Bye","type":"input_text"}],"role":"user","type":"message"}]"#

    static func request(
        _ messages: [ChatMessage] = conversation, model: String = "gpt-4o", sampling: SamplingValues = [:],
        stream: Bool = true, schema: ResponseSchema? = nil, tools: [ToolDefinition] = []
    ) -> ChatRequest {
        ChatRequest(
            messages: messages,
            settings: ChatSettings(model: model, sampling: sampling, stream: stream, responseSchema: schema),
            tools: tools)
    }

    @Test func aConversationIsStatelessWithTheSystemPromptAsInstructionsAndEarlierAnswersAsOutputText() throws {
        #expect(
            try Self.body(Self.request())
                == "{" + Self.conversationInput
                + #","instructions":"Be brief.","model":"gpt-4o","store":false,"stream":true}"#)
    }

    @Test func notStreamingSaysSo() throws {
        #expect(try Self.body(Self.request(stream: false)).contains(#""store":false,"stream":false"#))
    }

    @Test func severalSystemMessagesAreOneInstructionsAndNoneIsNone() throws {
        let messages = [
            ChatMessage(role: .system, content: "Be brief."), ChatMessage(role: .user, content: "Hi"),
            ChatMessage(role: .system, content: "Answer in French."),
        ]
        #expect(
            try Self.body(Self.request(messages))
                == #"{"input":[{"content":[{"text":"Hi","type":"input_text"}],"role":"user","type":"message"}],"#
                + #""instructions":"Be brief.\n\nAnswer in French.","model":"gpt-4o","store":false,"stream":true}"#)
        let plain = try Self.body(Self.request([ChatMessage(role: .user, content: "Hi")]))
        #expect(!plain.contains("instructions"))
    }

    @Test func samplingGoesAsTheAPINamesItAndMaxTokensIsMaxOutputTokens() throws {
        let sampling: SamplingValues = [
            .temperature: .number(0.5), .topP: .number(0.9), .maxTokens: .wholeNumber(300),
        ]
        #expect(
            try Self.body(Self.request(sampling: sampling))
                == "{" + Self.conversationInput
                + #","instructions":"Be brief.","max_output_tokens":300,"model":"gpt-4o","store":false,"#
                + #""stream":true,"temperature":0.5,"top_p":0.9}"#)
    }

    @Test func aSeedIsRefusedBeforeSending() {
        #expect(throws: ChatError.unsupportedSetting(name: "seed", provider: "openai-responses")) {
            try ResponsesRequestDTO(
                Self.request(sampling: [.seed: .wholeNumber(7)]), includeEncrypted: true, showsReasoning: true)
        }
    }

    @Test func imagesGoAsInputImagesWithDataURLsAndAGoneOneAsANote() throws {
        let image = ImageAttachment(path: "a.png", mimeType: "image/png", byteCount: 3, sha256: "", data: [1, 2, 3])
        let gone = ImageAttachment(path: "gone.png", mimeType: "image/png", byteCount: 3, sha256: "")
        let messages = [ChatMessage(role: .user, content: "What is this?", images: [image, gone])]
        #expect(
            try Self.body(Self.request(messages))
                == #"{"input":[{"content":[{"text":"What is this?","type":"input_text"},"#
                + #"{"detail":"auto","image_url":"data:image/png;base64,AQID","type":"input_image"},"#
                + #"{"text":"[image gone.png is no longer available]","type":"input_text"}],"#
                + #""role":"user","type":"message"}],"model":"gpt-4o","store":false,"stream":true}"#)
    }

    @Test func toolsAreFlatFunctionsNotStrictAndAnEmptyDescriptionIsLeftOut() throws {
        let weather = ToolDefinition(
            name: "get_weather", description: "weather",
            parameters: .object([
                "type": .string("object"), "properties": .object(["city": .object(["type": .string("string")])]),
                "required": .array([.string("city")]),
            ]))
        let clock = ToolDefinition(name: "time__now", description: "", parameters: .object(["type": .string("object")]))
        let body = try Self.body(Self.request([ChatMessage(role: .user, content: "Hi")], tools: [weather, clock]))
        #expect(
            body.hasSuffix(
                #""tools":[{"description":"weather","name":"get_weather","#
                    + #""parameters":{"properties":{"city":{"type":"string"}},"required":["city"],"type":"object"},"#
                    + #""strict":false,"type":"function"},"#
                    + #"{"name":"time__now","parameters":{"type":"object"},"strict":false,"type":"function"}]}"#),
            "\(body)")
    }

    @Test func aSchemaIsAStrictJSONSchemaTextFormat() throws {
        let schema = ResponseSchema(
            name: "answer",
            schema: .object([
                "type": .string("object"), "properties": .object(["a": .object(["type": .string("string")])]),
                "required": .array([.string("a")]), "additionalProperties": .bool(false),
            ]))
        let body = try Self.body(Self.request([ChatMessage(role: .user, content: "Hi")], schema: schema))
        #expect(
            body.hasSuffix(
                #""store":false,"stream":true,"text":{"format":{"name":"answer","#
                    + #""schema":{"additionalProperties":false,"properties":{"a":{"type":"string"}},"#
                    + #""required":["a"],"type":"object"},"strict":true,"type":"json_schema"}}}"#),
            "\(body)")
    }

    @Test func anotherProvidersThinkingGoesAsTextBeforeTheAnswerAndItsOpaqueDataNot() throws {
        let messages = [
            ChatMessage(role: .user, content: "Hi"),
            ChatMessage(
                role: .assistant,
                parts: [
                    .thinking(.signed(text: "Say hello.", signature: "c2ln")), .thinking(.redacted(data: "cmVk")),
                    .thinking(.signed(text: "Be warm.", signature: "c2lnMg==")), .text("Hello."),
                ]),
        ]
        let dto = try ResponsesRequestDTO(Self.request(messages), includeEncrypted: true, showsReasoning: true)
        #expect(dto.sentAsText)
        #expect(
            String(decoding: try #require(dto.jsonBytes), as: UTF8.self)
                == #"{"input":[{"content":[{"text":"Hi","type":"input_text"}],"role":"user","type":"message"},"#
                + #"{"content":[{"text":"[thinking: Say hello.]\n\n[thinking: Be warm.]\n\nHello.","type":"output_text"}],"#
                + #""role":"assistant","type":"message"}],"model":"gpt-4o","store":false,"stream":true}"#)
        #expect(try !ResponsesRequestDTO(Self.request(), includeEncrypted: true, showsReasoning: true).sentAsText)
    }
}
