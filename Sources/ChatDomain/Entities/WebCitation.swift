/// A source an answer cites from the server's web search: its URL and title (both the server's
/// text: made safe where shown).
public struct WebCitation: Sendable, Equatable {
    public var url: String
    public var title: String

    public init(url: String, title: String) {
        self.url = url
        self.title = title
    }
}
