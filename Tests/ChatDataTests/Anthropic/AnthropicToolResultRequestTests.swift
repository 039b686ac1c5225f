import ChatDomain
import Testing

@testable import ChatProviders

private typealias F = ToolResultFixtures

/// The Messages body for `messages`, offering the tool, for a model that takes images or not.
private func body(_ messages: [ChatMessage], takesImages: Bool = true) throws -> String {
    let request = ChatRequest(
        messages: messages, settings: ChatSettings(model: "claude-test", stream: false), tools: [F.tool])
    let dto = try MessagesRequestDTO(request, thinking: nil, cache: false, takesImages: takesImages)
    #expect(!dto.sentAsText)
    return String(decoding: try #require(dto.jsonBytes), as: UTF8.self)
}

private func j(_ pieces: String...) -> String { pieces.joined() }

private let question = #"{"content":[{"text":"Shoot","type":"text"}],"role":"user"}"#

/// The assistant turn calling the tool once per id.
private func calls(_ ids: String...) -> String {
    #"{"content":["#
        + ids.map { #"{"id":"\#($0)","input":{},"name":"shots__shoot","type":"tool_use"}"# }
        .joined(separator: ",") + #"],"role":"assistant"}"#
}

private func text(_ text: String) -> String { #"{"text":"\#(text)","type":"text"}"# }

private let png = #"{"source":{"data":"AQID","media_type":"image/png","type":"base64"},"type":"image"}"#
private let gif = #"{"source":{"data":"R0lGOA==","media_type":"image/gif","type":"base64"},"type":"image"}"#
private let tools =
    #""tools":[{"description":"Takes pictures","input_schema":{"type":"object"},"name":"shots__shoot"}]"#

/// How a tool's result reaches an Anthropic model: a `tool_result` block with its text and image
/// blocks in order, `is_error: true` for a failed call; an image as a note where its bytes are
/// gone or the model takes none.
@Suite struct AnthropicToolResultRequestTests {
    @Test func textAndTwoImagesAreBlocksOfTheToolResultInOrder() throws {
        #expect(
            try body(F.round(F.twoShots))
                == j(
                    #"{"max_tokens":8192,"messages":["#, question, ",", calls("call_1"), ",",
                    #"{"content":[{"content":["#, text("Two shots."), ",", png, ",", gif,
                    #"],"tool_use_id":"call_1","type":"tool_result"}],"role":"user"}],"#,
                    #""model":"claude-test","stream":false,"#, tools, "}"))
    }

    @Test func aFailedCallIsMarkedIsErrorAndItsWordsAreItsOwn() throws {
        let messages = F.round(
            ToolResult(callID: "call_1", content: [.text("the camera is off"), .image(F.png)], isError: true),
            ToolResult(callID: "call_2", content: [], isError: true))
        #expect(
            try body(messages).contains(
                j(
                    #"{"content":[{"content":["#, text("the camera is off"), ",", png, #"],"is_error":true,"#,
                    #""tool_use_id":"call_1","type":"tool_result"},"#,
                    #"{"is_error":true,"tool_use_id":"call_2","type":"tool_result"}],"role":"user"}"#)))
    }

    @Test func severalResultsOfOneRoundEachHoldTheirImagesInCallOrder() throws {
        let messages = F.round(
            ToolResult(callID: "call_1", content: [.image(F.gif)]),
            ToolResult(callID: "call_2", content: [.text("nothing to see")]),
            ToolResult(callID: "call_3", content: [.image(F.png)]))
        #expect(
            try body(messages).contains(
                j(
                    calls("call_1", "call_2", "call_3"), ",",
                    #"{"content":[{"content":["#, gif, #"],"tool_use_id":"call_1","type":"tool_result"},"#,
                    #"{"content":["#, text("nothing to see"), #"],"tool_use_id":"call_2","type":"tool_result"},"#,
                    #"{"content":["#, png, #"],"tool_use_id":"call_3","type":"tool_result"}],"role":"user"}]"#)))
    }

    @Test func anImageWithoutItsBytesIsItsNote() throws {
        let gone = ToolResult(callID: "call_1", content: [.text("One shot."), .image(F.gone)])
        #expect(
            try body(F.round(gone)).contains(
                j(
                    #"{"content":[{"content":["#, text("One shot."), ",",
                    text("[image shots.shoot is no longer available]"),
                    #"],"tool_use_id":"call_1","type":"tool_result"}],"role":"user"}"#)))
    }

    @Test func aModelThatTakesNoImagesGetsTheNoteAloneForAToolsAndAPersonsImage() throws {
        let messages =
            [
                ChatMessage(role: .user, content: "Look", images: [F.png]),
                ChatMessage(role: .assistant, content: "A dot."),
            ]
            + F.round(F.twoShots)
        let note = "not sent, this model takes no images (images: false)]"
        #expect(
            try body(messages, takesImages: false)
                == j(
                    #"{"max_tokens":8192,"messages":[{"content":["#, text("Look"), ",",
                    text("[image/png, 3 bytes: " + note),
                    #"],"role":"user"},{"content":["#, text("A dot."), #"],"role":"assistant"},"#, question, ",",
                    calls("call_1"), ",", #"{"content":[{"content":["#, text("Two shots."), ",",
                    text("[image/png, 3 bytes: " + note), ",", text("[image/gif, 4 bytes: " + note),
                    #"],"tool_use_id":"call_1","type":"tool_result"}],"role":"user"}],"#,
                    #""model":"claude-test","stream":false,"#, tools, "}"))
    }
}
