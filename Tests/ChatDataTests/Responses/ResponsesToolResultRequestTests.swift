import ChatDomain
import Testing

@testable import ChatProviders

private typealias F = ToolResultFixtures

/// The Responses body for `messages`, offering the tool, for a model that takes images or not.
private func body(_ messages: [ChatMessage], takesImages: Bool = true) throws -> String {
    let request = ChatRequest(
        messages: messages, settings: ChatSettings(model: "gpt-4.1", stream: false), tools: [F.tool])
    let dto = try ResponsesRequestDTO(request, includeEncrypted: false, showsReasoning: true, takesImages: takesImages)
    #expect(!dto.sentAsText)
    return String(decoding: try #require(dto.jsonBytes), as: UTF8.self)
}

private func j(_ pieces: String...) -> String { pieces.joined() }

private let question = #"{"content":[{"text":"Shoot","type":"input_text"}],"role":"user","type":"message"}"#

/// The `function_call` items, one per id.
private func calls(_ ids: String...) -> String {
    ids.map { #"{"arguments":"{}","call_id":"\#($0)","name":"shots__shoot","type":"function_call"}"# }
        .joined(separator: ",")
}

/// A `function_call_output` whose output is `output` (JSON: a string or parts).
private func output(_ id: String, _ output: String) -> String {
    #"{"call_id":"\#(id)","output":\#(output),"type":"function_call_output"}"#
}

private func text(_ text: String) -> String { #"{"text":"\#(text)","type":"input_text"}"# }

private let png = #"{"detail":"auto","image_url":"data:image/png;base64,AQID","type":"input_image"}"#
private let gif = #"{"detail":"auto","image_url":"data:image/gif;base64,R0lGOA==","type":"input_image"}"#
private let tools =
    #""tools":[{"description":"Takes pictures","name":"shots__shoot","parameters":{"type":"object"},"#
    + #""strict":false,"type":"function"}]"#

/// How a tool's result reaches a model over OpenAI's Responses API: `function_call_output`'s
/// `output` is text, or, when the result holds images, `input_text` and `input_image` parts in
/// order (the openapi spec's `FunctionCallOutputItemParam`); a failed call's output begins
/// `Error:` (the item has no error field).
@Suite struct ResponsesToolResultRequestTests {
    @Test func textAndTwoImagesAreTheOutputsPartsInOrder() throws {
        #expect(
            try body(F.round(F.twoShots))
                == j(
                    #"{"input":["#, question, ",", calls("call_1"), ",",
                    output("call_1", j("[", text("Two shots."), ",", png, ",", gif, "]")),
                    #"],"model":"gpt-4.1","store":false,"stream":false,"#, tools, "}"))
    }

    @Test func aFailedCallsOutputBeginsError() throws {
        let messages = F.round(
            ToolResult(callID: "call_1", content: [.text("the camera is off")], isError: true),
            ToolResult(callID: "call_2", content: [.image(F.png)], isError: true),
            ToolResult(callID: "call_3", content: [], isError: true))
        #expect(
            try body(messages).contains(
                j(
                    calls("call_1", "call_2", "call_3"), ",", output("call_1", #""Error: the camera is off""#), ",",
                    output("call_2", j("[", text("Error:"), ",", png, "]")), ",",
                    output("call_3", #""Error: the call failed and said nothing more""#), "]")))
    }

    @Test func severalResultsOfOneRoundEachCarryTheirImagesInCallOrder() throws {
        let messages = F.round(
            ToolResult(callID: "call_1", content: [.image(F.gif)]),
            ToolResult(callID: "call_2", content: [.text("nothing to see")]),
            ToolResult(callID: "call_3", content: [.text("one"), .text("shot"), .image(F.png), .text("done")]))
        #expect(
            try body(messages).contains(
                j(
                    calls("call_1", "call_2", "call_3"), ",", output("call_1", j("[", gif, "]")), ",",
                    output("call_2", #""nothing to see""#), ",",
                    output("call_3", j("[", text(#"one\nshot"#), ",", png, ",", text("done"), "]")), "]")))
    }

    @Test func anImageWithoutItsBytesIsItsNoteAndTheOutputText() throws {
        let gone = ToolResult(callID: "call_1", content: [.text("One shot."), .image(F.gone)])
        #expect(
            try body(F.round(gone)).contains(
                output("call_1", #""One shot.\n[image shots.shoot is no longer available]""#)))
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
                    #"{"input":[{"content":["#, text("Look"), ",", text("[image/png, 3 bytes: " + note),
                    #"],"role":"user","type":"message"},"#,
                    #"{"content":[{"text":"A dot.","type":"output_text"}],"role":"assistant","type":"message"},"#,
                    question, ",", calls("call_1"), ",",
                    output(
                        "call_1",
                        #""Two shots.\n[image/png, 3 bytes: "# + note + #"\n[image/gif, 4 bytes: "# + note + #"""#),
                    #"],"model":"gpt-4.1","store":false,"stream":false,"#, tools, "}"))
    }
}
