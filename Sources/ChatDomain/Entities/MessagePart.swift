/// One part of a message, in the order written: text, an image, or, with tools, a call the model
/// makes or the result of one.
public enum MessagePart: Sendable, Equatable {
    case text(String)
    case image(ImageAttachment)
    case toolCall(ToolCall)
    case toolResult(ToolResult)
}
