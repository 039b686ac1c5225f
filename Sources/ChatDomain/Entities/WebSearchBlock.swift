/// A web search the provider's server ran while answering, as that provider sent it, kept with
/// the answer to go back to it in later turns (as `ThinkingBlock` keeps reasoning): the provider
/// that made it sends it back unmodified, another leaves it out. Never shown but for its query.
public enum WebSearchBlock: Sendable, Equatable {
    /// The search the model asked the server to run (Anthropic's `server_tool_use`): its id,
    /// the server tool's name and its input (`{"query": …}`).
    case call(id: String, name: String, input: JSONValue)
    /// What the search found (Anthropic's `web_search_tool_result`): the call it answers and its
    /// `content` as sent, the results' encrypted content and all (or the error object).
    case results(callID: String, content: JSONValue)
    /// A Responses `web_search_call` item, whole but for its id (`status`, `action`).
    case item(JSONValue)

    /// The query searched for, when the block says it.
    public var query: String? {
        switch self {
        case .call(_, _, let input): input["query"]?.string
        case .results: nil
        case .item(let item): item["action"]?["query"]?.string
        }
    }
}
