import ChatDomain

/// Web search on the server (`--web`): the tool offered after the conversation's own tools, and
/// the searches of earlier answers sent back as they came only while it is offered.
extension MessagesRequestDTO {
    /// The server tool's type and name, as Anthropic's API names them.
    static let webSearchType = "web_search_20250305"
    static let webSearchName = "web_search"

    /// Offers the server's web search, at most `maxUses` searches an answer (`max_uses`).
    mutating func offerWebSearch(maxUses: Int) {
        let tool = ToolDTO(type: Self.webSearchType, name: Self.webSearchName, input_schema: nil, max_uses: maxUses)
        tools = (tools ?? []) + [tool]
    }

    /// Leaves out the earlier answers' searches (`server_tool_use` and `web_search_tool_result`
    /// blocks): the answers' text says what they found, and without the tool offered the blocks
    /// have nothing to go with. A turn left empty is left out.
    mutating func leaveOutWebSearches() {
        for index in messages.indices {
            messages[index].content.removeAll { $0.type == "server_tool_use" || $0.type == "web_search_tool_result" }
        }
        messages.removeAll { $0.content.isEmpty }
    }
}
