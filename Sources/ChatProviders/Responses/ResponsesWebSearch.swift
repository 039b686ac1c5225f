import ChatDomain

/// What the server's web search items mean as events, in a stream and in a whole response alike.
enum ResponsesWebSearch {
    /// A `web_search_call` item, to be sent back: its `status` and `action`, without its id
    /// (the server keeps nothing: `store` is false).
    static func block(_ item: ResponsesItemDTO) -> WebSearchBlock {
        var members: [String: JSONValue] = ["type": .string("web_search_call")]
        if let status = item.status { members["status"] = .string(status) }
        if let action = item.action { members["action"] = action }
        return .item(.object(members))
    }

    /// The query a `web_search_call` item searches for, when its action says it.
    static func query(_ item: ResponsesItemDTO) -> String? {
        guard let query = item.action?["query"]?.string, !query.isEmpty else { return nil }
        return query
    }

    /// A `url_citation` annotation's source, the annotation kept with it; nil for another kind,
    /// or one without a URL.
    static func citation(_ annotation: JSONValue) -> WebCitation? {
        guard annotation["type"]?.string == "url_citation", let url = annotation["url"]?.string, !url.isEmpty else {
            return nil
        }
        return WebCitation(url: url, title: annotation["title"]?.string ?? "", sent: annotation)
    }

    /// The citations of a message item's text parts, in order.
    static func citations(in item: ResponsesItemDTO) -> [WebCitation] {
        (item.content ?? []).flatMap { ($0.annotations ?? []).compactMap(citation) }
    }
}
