/// One part of a message, in the order written: text, an image or a PDF (`ImageAttachment`, its
/// `isPDF`), or, with tools, a call the model makes or the result of one; an answer may hold the
/// provider's thinking blocks, to send back.
public enum MessagePart: Sendable, Equatable {
    case text(String)
    case image(ImageAttachment)
    case toolCall(ToolCall)
    case toolResult(ToolResult)
    /// A thinking block the provider signed, kept to send back to it unmodified (never shown:
    /// its text is the message's `reasoning`); a provider that takes none leaves it out.
    case thinking(ThinkingBlock)
    /// A web search the provider's server ran for the answer, kept to send back to it (never
    /// shown); a provider that takes none leaves it out.
    case webSearch(WebSearchBlock)
}
