/// One part of a message, in the order written: text, an image or a PDF (`ImageAttachment`, its
/// `isPDF`), or, with tools, a call the model makes or the result of one; an answer may hold the
/// provider's thinking blocks, to send back, and its web searches and their citations.
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
    /// A source the answer cites, where the citation came: before the text it cites (a run of
    /// them, then the text part after them: one cited block of Anthropic's). Listed after the
    /// answer where it is shown again (`--show`); sent back only to the provider that made it.
    case citation(WebCitation)
}
