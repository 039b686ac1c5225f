import ChatDomain

/// Web search on the server (`--web`): the tool offered after the conversation's own tools, and
/// the searches of earlier answers sent back as they came only while it is offered.
extension ResponsesRequestDTO {
    /// Offers the server's web search: `{"type": "web_search"}`.
    mutating func offerWebSearch() {
        tools = (tools ?? []) + [ToolDTO(type: "web_search", name: nil, parameters: nil, strict: nil)]
    }

    /// Leaves out the earlier answers' `web_search_call` items: the answers' text says what they
    /// found, and without the tool offered the items have nothing to go with.
    mutating func leaveOutWebSearches() {
        input.removeAll { $0.type == "web_search_call" }
    }
}
