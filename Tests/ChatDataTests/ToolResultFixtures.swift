import ChatDomain

/// Tool results with images, as the MCP client hands them on (each image named `server.tool`,
/// its bytes decoded from the server's Base64), for the three providers' request tests.
enum ToolResultFixtures {
    /// A PNG's 3 bytes: `AQID` in Base64.
    static let png = ImageAttachment(
        path: "shots.shoot", mimeType: "image/png", byteCount: 3, sha256: "", data: [1, 2, 3])
    /// A GIF's 4 bytes: `R0lGOA==` in Base64.
    static let gif = ImageAttachment(
        path: "shots.shoot", mimeType: "image/gif", byteCount: 4, sha256: "", data: [0x47, 0x49, 0x46, 0x38])
    /// The PNG with its bytes gone, as a conversation loaded from the history has it.
    static let gone = ImageAttachment(path: "shots.shoot", mimeType: "image/png", byteCount: 3, sha256: "")

    static let tool = ToolDefinition(
        name: "shots__shoot", description: "Takes pictures", parameters: .object(["type": .string("object")]))

    /// Call `id` of the tool.
    static func call(_ id: String) -> ToolCall {
        ToolCall(id: id, name: "shots__shoot", arguments: .object([:]))
    }

    /// The question, the answer calling one tool per result (by their ids, in order), and the
    /// results.
    static func round(_ results: ToolResult...) -> [ChatMessage] {
        [
            ChatMessage(role: .user, content: "Shoot"),
            ChatMessage(role: .assistant, parts: results.map { .toolCall(call($0.callID)) }),
            ChatMessage(role: .tool, parts: results.map(MessagePart.toolResult)),
        ]
    }

    /// Text and two images.
    static let twoShots = ToolResult(callID: "call_1", content: [.text("Two shots."), .image(png), .image(gif)])
}
