import ChatDomain
import ChatJSON

/// What the server's web search blocks mean as events, in a stream and in a whole answer alike.
enum AnthropicWebSearch {
    /// A `server_tool_use` block ended, its input whole as JSON text: the search (its query
    /// shown, when it has one) and the block, to be sent back.
    static func call(id: String, name: String, inputText: String) -> [ChatEvent] {
        let parsed = inputText.isEmpty ? nil : try? JSONParser.parse(Array(inputText.utf8))
        return call(id: id, name: name, input: parsed ?? .object([:]))
    }

    /// A `server_tool_use` block, its input read.
    static func call(id: String, name: String, input: JSONValue) -> [ChatEvent] {
        let block = WebSearchBlock.call(id: id, name: name, input: input)
        let query = block.query.map { [ChatEvent.searching(query: $0)] } ?? []
        return query + [.searched(block)]
    }

    /// A `web_search_tool_result` block: what the search found, as sent.
    static func results(of block: MessagesBlockDTO) -> ChatEvent {
        .searched(.results(callID: block.tool_use_id ?? "", content: block.content ?? .array([])))
    }

    /// A `web_search_result_location` citation's source, the citation itself kept to send back;
    /// nil for another kind, or one without a URL.
    static func citation(_ citation: JSONValue) -> WebCitation? {
        guard citation["type"]?.string == "web_search_result_location", let url = citation["url"]?.string,
            !url.isEmpty
        else { return nil }
        return WebCitation(url: url, title: citation["title"]?.string ?? "", sent: citation)
    }
}
