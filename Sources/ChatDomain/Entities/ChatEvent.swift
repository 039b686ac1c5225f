/// What an answer stream yields, in order of arrival.
public enum ChatEvent: Sendable, Equatable {
    /// A piece of answer text (refusal text counts as answer text).
    case text(String)
    /// A piece of reasoning text: shown dimmed on a terminal, never part of the answer.
    case reasoning(String)
    /// Token usage for the request.
    case usage(TokenUsage)
    /// The server said why the answer ended ("stop", "length", …).
    case finished(reason: String)
    /// The request failed before any answer arrived and is sent again after `delay` seconds;
    /// `attempt` counts retries from 1 up to `limit`.
    case retrying(attempt: Int, limit: Int, delay: Double, reason: String)
    /// The answer asks for these tools to be run, in order: sent once, whole, as the answer ends
    /// (before `.finished`).
    case toolCalls([ToolCall])
    /// A thinking block whole, signature and all, as it ended (its text came as `.reasoning`):
    /// kept with the answer to be sent back, never shown.
    case thinking(ThinkingBlock)
    /// Parts of the conversation that `provider`'s API cannot take as they are (tool calls and
    /// results when no tools are offered, another provider's tool rounds it cannot read) were
    /// sent to it as text: said once a run, before the answer.
    case sentAsText(provider: String)
    /// The provider changed something of the request (`RequestNotice`): said before the answer.
    case notice(RequestNotice)
    /// The request failed with `error` before any answer text (after its retries), and the same
    /// conversation went to the next profile of the fallback list (`AnswerFallback`): from the
    /// profile `from` (nil: the run's settings had none) to `to`, whose model is `model`.
    case fellBack(from: String?, to: String, model: String, after: ChatError)
    /// The stream broke after some answer text (`reason`: what broke it) and the answer was asked
    /// for again from where it stopped; what follows continues the text exactly.
    case resumed(reason: ChatError)
    /// The server is searching the web for `query` (its own search tool, `--web`): shown as it
    /// starts.
    case searching(query: String)
    /// A web search the server ran, whole, as the provider sent it: kept with the answer to be
    /// sent back, never shown.
    case searched(WebSearchBlock)
    /// The answer cites this source of the server's web search (each time it does; the renderer
    /// lists each URL once, numbered).
    case cited(WebCitation)
}
