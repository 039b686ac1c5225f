import ChatDomain
import Testing

/// A message is made of typed parts; `content` and `images` read and set its text and images, as
/// the fields they replace did.
@Suite("Chat message parts")
struct ChatMessageTests {
    static let image = ImageAttachment(
        path: "a.png", mimeType: "image/png", byteCount: 3, sha256: "ab", data: [1, 2, 3])
    static let call = ToolCall(id: "call_1", name: "get_time", arguments: .object(["tz": .string("UTC")]))

    @Test func textAndImagesAreParts() {
        let message = ChatMessage(role: .user, content: "Look", images: [Self.image])
        #expect(message.parts == [.text("Look"), .image(Self.image)])
        #expect(message.content == "Look")
        #expect(message.images == [Self.image])
        #expect(ChatMessage(role: .user, content: "").parts.isEmpty)
        #expect(ChatMessage(role: .user, content: "") == ChatMessage(role: .user, parts: [.text("")]))
    }

    @Test func streamedTextGrowsTheLastTextPart() {
        var answer = ChatMessage(role: .assistant, content: "")
        for event: ChatEvent in [.text("Hel"), .reasoning("hm"), .text("lo"), .text(""), .finished(reason: "stop")] {
            answer.add(event)
        }
        #expect(answer.parts == [.text("Hello")])
        #expect(answer.reasoning == "hm")
        answer.append(.toolCall(Self.call))
        answer.add(.text(" then"))
        #expect(answer.parts == [.text("Hello"), .toolCall(Self.call), .text(" then")])
        #expect(answer.content == "Hello then")
        #expect(answer.toolCalls == [Self.call])
    }

    @Test func settingTheTextOrTheImagesReplacesTheirParts() {
        var message = ChatMessage(
            role: .user, parts: [.image(Self.image), .text("a"), .toolCall(Self.call), .text("b")])
        message.content = "c"
        #expect(message.parts == [.image(Self.image), .text("c"), .toolCall(Self.call)])
        message.images = []
        #expect(message.parts == [.text("c"), .toolCall(Self.call)])
        message.content = ""
        #expect(message.parts == [.toolCall(Self.call)])
        let result = ToolResult(callID: "call_1", content: [.text("12:00")], isError: false)
        message.append(.toolResult(result))
        #expect(message.toolResults == [result])
    }

    @Test func aJSONValueAnswersForItsOwnKind() {
        let value = JSONValue.object(["n": .number(3), "s": .string("x"), "a": .array([.bool(true), .null])])
        #expect(value["n"]?.wholeNumber == 3)
        #expect(value["s"]?.string == "x")
        #expect(value["a"]?.array?.first?.bool == true)
        #expect(value["missing"] == nil)
        #expect(value.object?.count == 3)
        #expect(JSONValue.number(3.5).wholeNumber == nil)
        #expect(!JSONValue.string("{}").isObject)
    }
}
