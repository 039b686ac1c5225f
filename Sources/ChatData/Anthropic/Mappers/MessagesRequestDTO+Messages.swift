import ChatDomain

/// The conversation as the Messages API takes it: user and assistant turns of content blocks.
/// An answer's thinking blocks (when thinking is on), text and tool calls (`tool_use`) in the
/// order they came; a message of tool results (`Role.tool`) is a user turn that starts with one
/// `tool_result` block per call (a person's message after it joins that turn, after them).
/// What the API cannot take is sent as text instead: tool calls when no tools are offered (a
/// conversation continued without them), a call whose arguments are not a JSON object, and a
/// call left without a result or a result without its call (another provider's history).
extension MessagesRequestDTO {
    /// A call sent as `tool_use`, waiting for its result: its id in the conversation and on the
    /// wire, and where its block is.
    private struct SentCall {
        var id: String
        var wireID: String
        var name: String
        var message: Int
    }

    /// The turns; `sentAsText` is set when anything went as text.
    static func messages(
        _ messages: [ChatMessage], keepsThinking: Bool, takesTools: Bool, sentAsText: inout Bool
    ) -> [MessageDTO] {
        var wire: [MessageDTO] = []
        wire.reserveCapacity(messages.count)
        var ids = ToolUseIDs()
        var waiting: [SentCall] = []
        var asText: [(id: String, name: String)] = []
        for message in messages where message.role != .system {
            // Results answer the turn just before them: calls still waiting have none.
            if message.role != .tool, !waiting.isEmpty {
                sendAsText(&waiting, in: &wire)
                sentAsText = true
            }
            var blocks: [BlockDTO] = []
            switch message.role {
            case .system:
                continue
            case .user:
                blocks = userBlocks(message)
            case .assistant:
                for part in message.parts {
                    switch part {
                    case .thinking(let block):
                        if keepsThinking { blocks.append(thinkingBlock(block)) }
                    case .text(let text):
                        blocks.append(BlockDTO(type: "text", text: text))
                    case .image(let image):
                        blocks.append(imageBlock(image))
                    case .toolCall(let call):
                        guard takesTools, case .object = call.arguments else {
                            blocks.append(BlockDTO(type: "text", text: callText(call.name, call.argumentsText)))
                            asText.append((call.id, call.name))
                            sentAsText = true
                            continue
                        }
                        let wireID = ids.wireID(for: call.id)
                        blocks.append(BlockDTO(type: "tool_use", id: wireID, name: call.name, input: call.arguments))
                        waiting.append(SentCall(id: call.id, wireID: wireID, name: call.name, message: wire.count))
                    case .toolResult:
                        continue
                    }
                }
            case .tool:
                var texts: [BlockDTO] = []
                for result in message.toolResults {
                    if let index = waiting.firstIndex(where: { $0.id == result.callID }) {
                        let call = waiting.remove(at: index)
                        blocks.append(
                            BlockDTO(
                                type: "tool_result", tool_use_id: call.wireID, content: resultContent(result),
                                is_error: result.isError ? true : nil))
                    } else {
                        let found = asText.firstIndex { $0.id == result.callID }
                        let name = found.map { asText.remove(at: $0).name }
                        texts.append(BlockDTO(type: "text", text: resultText(result, name: name)))
                    }
                }
                blocks += texts
                if !texts.isEmpty { sentAsText = true }
            }
            guard !blocks.isEmpty else { continue }
            let role = message.role == .assistant ? "assistant" : "user"
            if role == "user", let last = wire.indices.last, wire[last].role == "user",
                wire[last].content.first?.type == "tool_result"
            {
                wire[last].content += blocks
            } else {
                wire.append(MessageDTO(role: role, content: blocks))
            }
        }
        if !waiting.isEmpty {
            sendAsText(&waiting, in: &wire)
            sentAsText = true
        }
        return wire
    }

    /// A person's message: its text, then each image.
    private static func userBlocks(_ message: ChatMessage) -> [BlockDTO] {
        (message.content.isEmpty ? [] : [BlockDTO(type: "text", text: message.content)])
            + message.images.map(imageBlock)
    }

    /// An image as a base64 `source` block, or a note where its bytes are gone.
    private static func imageBlock(_ image: ImageAttachment) -> BlockDTO {
        guard let data = image.data else { return BlockDTO(type: "text", text: image.unavailableNote) }
        return BlockDTO(type: "image", source: ImageSourceDTO(media_type: image.mimeType, data: Base64.encode(data)))
    }

    /// A thinking block as the provider sent it.
    private static func thinkingBlock(_ block: ThinkingBlock) -> BlockDTO {
        switch block {
        case .signed(let text, let signature): BlockDTO(type: "thinking", thinking: text, signature: signature)
        case .redacted(let data): BlockDTO(type: "redacted_thinking", data: data)
        }
    }

    /// A result's content as text and image blocks; nil when it has none.
    private static func resultContent(_ result: ToolResult) -> [BlockDTO]? {
        var blocks: [BlockDTO] = []
        for part in result.content {
            switch part {
            case .text(let text): if !text.isEmpty { blocks.append(BlockDTO(type: "text", text: text)) }
            case .image(let image): blocks.append(imageBlock(image))
            case .toolCall, .toolResult, .thinking: continue
            }
        }
        return blocks.isEmpty ? nil : blocks
    }

    /// The `tool_use` blocks of calls that got no result, each replaced by the text of the call.
    private static func sendAsText(_ waiting: inout [SentCall], in wire: inout [MessageDTO]) {
        for call in waiting {
            guard wire.indices.contains(call.message),
                let index = wire[call.message].content.firstIndex(where: { $0.id == call.wireID })
            else { continue }
            let arguments = wire[call.message].content[index].input?.jsonText ?? "{}"
            wire[call.message].content[index] = BlockDTO(type: "text", text: callText(call.name, arguments))
        }
        waiting.removeAll()
    }

    /// A tool call as text, for when it cannot be a `tool_use` block.
    private static func callText(_ name: String, _ arguments: String) -> String {
        "[tool call: \(name) \(arguments)]"
    }

    /// A tool result as text, for when its call is not a `tool_use` block.
    private static func resultText(_ result: ToolResult, name: String?) -> String {
        let tool = name.map { " of \($0)" } ?? ""
        return "[tool \(result.isError ? "error" : "result")\(tool): \(result.text)]"
    }
}

/// The ids of the `tool_use` blocks of one request: the conversation's own where the API takes
/// them (letters, digits, `_` and `-`, each once), else one made from it.
private struct ToolUseIDs {
    private var used: Set<String> = []

    mutating func wireID(for id: String) -> String {
        var wireID = String(
            String.UnicodeScalarView(
                id.unicodeScalars.map {
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-")
                        ? $0 : "_"
                }))
        if wireID.isEmpty { wireID = "toolu_chat_\(used.count + 1)" }
        while used.contains(wireID) { wireID += "_" }
        used.insert(wireID)
        return wireID
    }
}
