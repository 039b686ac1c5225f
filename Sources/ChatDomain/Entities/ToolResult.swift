/// What running a tool gave, for the call it answers.
public struct ToolResult: Sendable, Equatable {
    /// The id of the call (`ToolCall.id`).
    public var callID: String
    /// The result: text and images.
    public var content: [MessagePart]
    /// The tool failed, or was not run: the model is told so.
    public var isError: Bool

    /// Creates a tool result.
    public init(callID: String, content: [MessagePart], isError: Bool = false) {
        self.callID = callID
        self.content = content
        self.isError = isError
    }
}

extension ToolResult {
    /// Its content as text, for a provider that takes only text: the text parts, one after
    /// another, with a line in place of each image.
    public var text: String {
        content.map { part in
            switch part {
            case .text(let text): text
            case .image(let image): "[an image (\(image.mimeType)) that cannot be shown here]"
            case .toolCall, .toolResult: ""
            }
        }.filter { !$0.isEmpty }.joined(separator: "\n")
    }
}
