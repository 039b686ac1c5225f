/// A turn the server paused before it was done (Anthropic's `pause_turn`: its own loop of server
/// tools, the web search, reached its limit of iterations) is sent back for the server to go on
/// with, as one answer, at most `continuations` times. Each continuation is a request of its own,
/// billed, carrying the whole conversation again with all the paused content, and the server may
/// search up to `web_search_max_uses` times more in it; a turn still paused after that many is
/// left so, with a note (`send a message to go on`).
public enum PausedTurn {
    /// The most continuations of one answer: 5, as LangChain's `AnthropicPauseTurnMiddleware`
    /// (`max_continuations`) defaults to; six requests of ten server iterations each.
    public static let continuations = 5
}
