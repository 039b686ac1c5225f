/// A source an answer cites from the server's web search: its URL and title (both the server's
/// text: made safe where shown), and the provider's own citation as it came, to send back.
public struct WebCitation: Sendable, Equatable {
    public var url: String
    public var title: String
    /// The citation object as the provider sent it (Anthropic's `web_search_result_location`,
    /// its `encrypted_index` and `cited_text` with it; a Responses `url_citation` annotation),
    /// kept with the answer: the provider that made it takes it back unmodified, another
    /// provider gets the text alone. Nil where none came.
    public var sent: JSONValue?

    public init(url: String, title: String, sent: JSONValue? = nil) {
        self.url = url
        self.title = title
        self.sent = sent
    }
}
