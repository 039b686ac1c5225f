import ChatDomain

/// Web search on the server (`--web`): the tool offered after the conversation's own tools, and
/// the searches of earlier answers sent back as they came only while it is offered.
extension MessagesRequestDTO {
    /// The server tool's type and name, as Anthropic's API names them.
    static let webSearchType = "web_search_20250305"
    static let webSearchName = "web_search"

    /// Offers the server's web search, at most `maxUses` searches an answer (`max_uses`). A
    /// search an earlier answer asked for but got no results for (its turn paused, and not gone
    /// on with) is left out: the API takes none without its results, but in the last turn, a
    /// paused answer sent back for the server to run it.
    mutating func offerWebSearch(maxUses: Int) {
        let tool = ToolDTO(type: Self.webSearchType, name: Self.webSearchName, input_schema: nil, max_uses: maxUses)
        tools = (tools ?? []) + [tool]
        for index in messages.indices.dropLast() where messages[index].role == "assistant" {
            let answered = Set(messages[index].content.compactMap(\.tool_use_id))
            messages[index].content.removeAll { $0.type == "server_tool_use" && !answered.contains($0.id ?? "") }
        }
        messages.removeAll { $0.content.isEmpty }
    }

    /// Leaves out the earlier answers' searches (`server_tool_use` and `web_search_tool_result`
    /// blocks) and the citations of their results: the answers' text says what they found, and
    /// without the tool offered the blocks have nothing to go with. The text blocks a cited
    /// answer came in go as one; a turn left empty is left out.
    mutating func leaveOutWebSearches() {
        for index in messages.indices
        where messages[index].content.contains(where: { Self.isSearch($0) || $0.citations != nil }) {
            var blocks: [BlockDTO] = []
            for var block in messages[index].content where !Self.isSearch(block) {
                block.citations = nil
                if block.type == "text", block.cache_control == nil, let last = blocks.indices.last,
                    blocks[last].type == "text", blocks[last].cache_control == nil
                {
                    blocks[last].text = (blocks[last].text ?? "") + (block.text ?? "")
                } else {
                    blocks.append(block)
                }
            }
            messages[index].content = blocks
        }
        messages.removeAll { $0.content.isEmpty }
    }

    /// Whether `block` is a web search the server ran, or what it found.
    private static func isSearch(_ block: BlockDTO) -> Bool {
        block.type == "server_tool_use" || block.type == "web_search_tool_result"
    }
}
