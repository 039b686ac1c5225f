import ChatDomain
import Testing

@testable import ChatProviders

private typealias F = ToolResultFixtures

/// The Chat Completions body for `messages`, for a model that takes images or not.
private func body(_ messages: [ChatMessage], takesImages: Bool = true) throws -> String {
    let request = ChatRequest(messages: messages, settings: ChatSettings(model: "m", stream: false))
    let dto = ChatCompletionRequestDTO(request, includeUsage: false, takesImages: takesImages)
    #expect(!dto.sentAsText)
    return String(decoding: try #require(dto.jsonBytes), as: UTF8.self)
}

private let question = #"{"content":"Shoot","role":"user"}"#

/// The assistant message calling the tool once per id.
private func calls(_ ids: String...) -> String {
    #"{"content":null,"role":"assistant","tool_calls":["#
        + ids.map { #"{"function":{"arguments":"{}","name":"shots__shoot"},"id":"\#($0)","type":"function"}"# }
        .joined(separator: ",") + "]}"
}

private func tool(_ id: String, _ content: String) -> String {
    #"{"content":"\#(content)","role":"tool","tool_call_id":"\#(id)"}"#
}

private func j(_ pieces: String...) -> String { pieces.joined() }

private let lead = #"{"text":"Images from the tool results above:","type":"text"}"#
private let png = #"{"image_url":{"url":"data:image/png;base64,AQID"},"type":"image_url"}"#
private let gif = #"{"image_url":{"url":"data:image/gif;base64,R0lGOA=="},"type":"image_url"}"#

/// How a tool's result reaches a model over OpenAI's Chat Completions: a failed call's tool
/// message begins `Error:` (the message has no field for it); a tool message takes only text, so
/// each image there is a note and the images follow in a user message, each named by its call.
@Suite struct ToolResultRequestTests {
    @Test func aFailedCallsToolMessageBeginsError() throws {
        let messages = F.round(
            ToolResult(callID: "call_1", content: [.text("the camera is off")], isError: true),
            ToolResult(callID: "call_2", content: [.text("Error: no film")], isError: true),
            ToolResult(callID: "call_3", content: [], isError: true),
            ToolResult(callID: "call_4", content: [.text("fine")]))
        #expect(
            try body(messages)
                == j(
                    #"{"messages":["#, question, ",", calls("call_1", "call_2", "call_3", "call_4"), ",",
                    tool("call_1", "Error: the camera is off"), ",",
                    // Already said: not said twice.
                    tool("call_2", "Error: no film"), ",",
                    tool("call_3", "Error: the call failed and said nothing more"), ",", tool("call_4", "fine"),
                    #"],"model":"m","stream":false}"#))
    }

    @Test func aResultsImagesFollowInAUserMessageEachNamedByItsCall() throws {
        #expect(
            try body(F.round(F.twoShots))
                == j(
                    #"{"messages":["#, question, ",", calls("call_1"), ",",
                    tool(
                        "call_1",
                        #"Two shots.\n[image/png, 3 bytes: sent in the next message]\n"#
                            + #"[image/gif, 4 bytes: sent in the next message]"#),
                    #",{"content":["#, lead, ",", #"{"text":"image 1 of call_1 (shots__shoot):","type":"text"},"#, png,
                    ",", #"{"text":"image 2 of call_1 (shots__shoot):","type":"text"},"#, gif, #"],"role":"user"}"#,
                    #"],"model":"m","stream":false}"#))
    }

    @Test func severalResultsOfOneRoundHaveTheirImagesInOneUserMessageInCallOrder() throws {
        let messages =
            F.round(
                ToolResult(callID: "call_1", content: [.image(F.gif)]),
                ToolResult(callID: "call_2", content: [.text("nothing to see")]),
                ToolResult(callID: "call_3", content: [.text("failed"), .image(F.png)], isError: true))
            + [ChatMessage(role: .assistant, content: "Two pictures.")]
        #expect(
            try body(messages)
                == j(
                    #"{"messages":["#, question, ",", calls("call_1", "call_2", "call_3"), ",",
                    tool("call_1", "[image/gif, 4 bytes: sent in the next message]"), ",",
                    tool("call_2", "nothing to see"), ",",
                    tool("call_3", #"Error: failed\n[image/png, 3 bytes: sent in the next message]"#),
                    #",{"content":["#, lead, ",", #"{"text":"the image of call_1 (shots__shoot):","type":"text"},"#,
                    gif,
                    ",", #"{"text":"the image of call_3 (shots__shoot):","type":"text"},"#, png, #"],"role":"user"}"#,
                    #",{"content":"Two pictures.","role":"assistant"}],"model":"m","stream":false}"#))
    }

    @Test func anImageWithoutItsBytesIsItsNoteAndNothingFollows() throws {
        let gone = ToolResult(callID: "call_1", content: [.text("One shot."), .image(F.gone)])
        #expect(
            try body(F.round(gone))
                == j(
                    #"{"messages":["#, question, ",", calls("call_1"), ",",
                    tool("call_1", #"One shot.\n[image shots.shoot is no longer available]"#),
                    #"],"model":"m","stream":false}"#))
    }

    @Test func aModelThatTakesNoImagesGetsTheNoteAloneForAToolsAndAPersonsImage() throws {
        let messages =
            [
                ChatMessage(role: .user, content: "Look", images: [F.png]),
                ChatMessage(role: .assistant, content: "A dot."),
            ]
            + F.round(F.twoShots)
        #expect(
            try body(messages, takesImages: false)
                == j(
                    #"{"messages":[{"content":[{"text":"Look","type":"text"},"#,
                    #"{"text":"[image/png, 3 bytes: not sent, this model takes no images (images: false)]","type":"text"}],"#,
                    #""role":"user"},{"content":"A dot.","role":"assistant"},"#, question, ",", calls("call_1"), ",",
                    tool(
                        "call_1",
                        #"Two shots.\n[image/png, 3 bytes: not sent, this model takes no images (images: false)]\n"#
                            + #"[image/gif, 4 bytes: not sent, this model takes no images (images: false)]"#),
                    #"],"model":"m","stream":false}"#))
    }

    @Test func anImageOfATypeNoAPITakesIsANoteAndATypeInCapitalsIsSentInLowerCase() throws {
        var svg = F.png
        svg.mimeType = "image/svg+xml"
        var upper = F.png
        upper.mimeType = "IMAGE/PNG"
        let text = try body(F.round(ToolResult(callID: "call_1", content: [.image(svg), .image(upper)])))
        #expect(
            text.contains(
                tool(
                    "call_1",
                    #"[image/svg+xml, 3 bytes: not sent, the API takes PNG, JPEG, GIF and WebP images only]\n"#
                        + #"[IMAGE/PNG, 3 bytes: sent in the next message]"#)), "\(text)")
        // The one image sent is the call's only one.
        #expect(text.contains(#"{"text":"the image of call_1 (shots__shoot):","type":"text"},"# + png + "]"), "\(text)")
    }

    @Test func aResultWhoseCallIsNotInTheRequestNamesTheCallAlone() throws {
        // The answer that made the call was left out (too old for the context).
        let messages = [
            ChatMessage(role: .user, content: "Shoot"),
            ChatMessage(role: .tool, parts: [.toolResult(ToolResult(callID: "call_9", content: [.image(F.png)]))]),
        ]
        #expect(try body(messages).contains(#"{"text":"the image of call_9:","type":"text"},"# + png))
    }
}
