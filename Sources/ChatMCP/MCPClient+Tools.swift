import ChatDomain

/// A server's tools: listed, and called.
extension MCPClient {
    /// Every tool the server offers, by its own names, with its origin.
    func tools() async -> Result<[ToolDefinition], ToolServerFailure> {
        await list("tools/list", key: "tools").map { items in
            var infos: [String: MCPToolInfo] = [:]
            let tools = items.compactMap { tool -> ToolDefinition? in
                guard let name = tool["name"]?.string else { return nil }
                infos[name] = MCPToolInfo(
                    outputSchema: tool["outputSchema"], idempotent: tool["annotations"]?["idempotentHint"]?.bool == true
                )
                return ToolDefinition(
                    name: name, description: tool["description"]?.string ?? "",
                    parameters: tool["inputSchema"] ?? .object(["type": .string("object")]),
                    origin: ToolOrigin(server: entry.name, tool: name))
            }
            state.withLock { $0.tools = infos }
            return tools
        }.map { tools in
            // Once listed, the server's changes are listened to, where it offers them.
            listen()
            return tools
        }
    }

    /// Calls tool `name` (the server's own name) with `arguments`: what it gave (a tool that
    /// failed is an error result; `structuredContent` that does not match the tool's output schema
    /// too, its failure saying where), or why there is no answer (a timeout, a cancellation, the
    /// server gone, an answer that broke off: the call is sent again only for a tool marked
    /// idempotent). `progress` hears the server's progress notifications; each image of the
    /// result is at most `imageLimit` bytes.
    func call(
        _ name: String, arguments: JSONValue, callID: String, imageLimit: Int = 100_000,
        progress: (@Sendable (ToolProgress) -> Void)? = nil
    ) async -> Result<ToolResult, ToolServerFailure> {
        let info = state.withLock { $0.tools[name] }
        let token = progress.map(inbound.progressToken)
        defer { token.map(inbound.endProgress) }
        let answer = await sendAnswering(
            "tools/call", params: ["name": .string(name), "arguments": arguments], timeout: entry.callTimeout,
            name: name, safe: info?.idempotent ?? false, progressToken: token)
        switch answer {
        case .failure(let error) where error.isBroken:
            return .failure(.callInterrupted)
        case .failure(let error):
            return .failure(error.failure)
        case .success(let result):
            if let failure = Self.complete(result) { return .failure(failure) }
            return .success(
                MCPContent.toolResult(
                    result, callID: callID, outputSchema: info?.outputSchema, source: "\(entry.name).\(name)",
                    imageLimit: imageLimit))
        }
    }
}
