import ChatDomain

/// A server's prompts: listed, and fetched with their arguments.
extension MCPClient {
    /// The prompts the server offers; none when it declares no prompts.
    func prompts() async -> Result<[ToolServerPrompt], ToolServerFailure> {
        guard await offers("prompts") else { return .success([]) }
        return await list("prompts/list", key: "prompts").map { items in
            items.compactMap { item in
                guard let name = item["name"]?.string else { return nil }
                let arguments = (item["arguments"]?.array ?? []).compactMap { argument -> ToolServerPromptArgument? in
                    guard let name = argument["name"]?.string else { return nil }
                    return ToolServerPromptArgument(
                        name: name, description: argument["description"]?.string,
                        isRequired: argument["required"]?.bool ?? false)
                }
                return ToolServerPrompt(
                    server: entry.name, name: name, title: item["title"]?.string,
                    description: item["description"]?.string, arguments: arguments)
            }
        }
    }

    /// Prompt `name` with `arguments` filled in: its messages, text and images (each image at
    /// most `imageLimit` bytes); the server's questions answered on the way.
    func prompt(_ name: String, arguments: [String: String], imageLimit: Int = 100_000) async
        -> Result<ToolServerPromptMessages, ToolServerFailure>
    {
        guard await offers("prompts") else { return .failure(.notOffered("prompts")) }
        let params: [String: JSONValue] = [
            "name": .string(name), "arguments": .object(arguments.mapValues(JSONValue.string)),
        ]
        switch await sendAnswering("prompts/get", params: params, name: name, safe: true) {
        case .failure(let error):
            return .failure(error.failure)
        case .success(let result):
            if let failure = Self.complete(result) { return .failure(failure) }
            let source = "\(entry.name).\(name)"
            let messages = (result["messages"]?.array ?? []).map { message in
                let role: Role = message["role"]?.string == "assistant" ? .assistant : .user
                // One content block a message (2025-06-18 on); a list is read too.
                let blocks = message["content"]?.array ?? [message["content"] ?? .object([:])]
                return ChatMessage(
                    role: role, parts: blocks.map { MCPContent.part($0, source: source, imageLimit: imageLimit) })
            }
            return .success(ToolServerPromptMessages(description: result["description"]?.string, messages: messages))
        }
    }
}
