import ChatDomain
import ChatJSON

/// The conversation as the Messages API takes it: user and assistant turns of content blocks.
/// An answer's thinking blocks (when thinking is on), text and tool calls (`tool_use`) in the
/// order they came; a message of tool results (`Role.tool`) is a user turn that starts with one
/// `tool_result` block per call (its text and images as blocks, `is_error` for a failed call; a
/// person's message after it joins that turn, after them). An image goes as a note where its
/// bytes are gone or the model takes none (`SentImage`).
/// What the API cannot take is sent as text instead: tool calls when no tools are offered (a
/// conversation continued without them), a call whose arguments are not a JSON object, and a
/// call left without a result or a result without its call (another provider's history).
extension MessagesRequestDTO {
    /// The turns; the answers from index `keepsThinkingFrom` on keep their thinking blocks;
    /// `sentAsText` is set when anything went as text.
    static func messages(
        _ messages: [ChatMessage], keepsThinkingFrom: Int, takesTools: Bool, takesImages: Bool,
        sentAsText: inout Bool
    ) -> [MessageDTO] {
        var turns = Turns(takesTools: takesTools, takesImages: takesImages)
        turns.wire.reserveCapacity(messages.count)
        for (index, message) in messages.enumerated() {
            switch message.role {
            case .system: continue
            case .user: turns.add(userBlocks(message, takesImages: takesImages))
            case .assistant: turns.add(answer: message, keepsThinking: index >= keepsThinkingFrom)
            case .tool: turns.add(results: message.toolResults)
            }
        }
        turns.closeRound()
        sentAsText = sentAsText || turns.sentAsText
        return turns.wire
    }

    /// The wire's turns as they are written, and the calls of the last answer waiting for their
    /// results.
    private struct Turns {
        /// A call sent as `tool_use`: its id in the conversation and on the wire, and where its
        /// block is.
        struct SentCall {
            var id: String
            var wireID: String
            var name: String
            var message: Int
        }

        let takesTools: Bool
        let takesImages: Bool
        var wire: [MessageDTO] = []
        var sentAsText = false
        private var ids = ToolUseIDs()
        private var waiting: [SentCall] = []
        private var asText: [(id: String, name: String)] = []

        init(takesTools: Bool, takesImages: Bool) {
            self.takesTools = takesTools
            self.takesImages = takesImages
        }

        /// A person's blocks: a turn of their own, or after the results they follow.
        mutating func add(_ blocks: [BlockDTO]) {
            closeRound()
            append(blocks, role: "user")
        }

        /// An answer: its thinking (when kept; another provider's reasoning as text), text,
        /// images and calls, in order; the web searches the server ran, and the citations of
        /// their results before a text part, that text's `citations` (after the last text, the
        /// last text's).
        mutating func add(answer: ChatMessage, keepsThinking: Bool) {
            closeRound()
            var blocks: [BlockDTO] = []
            var citations: [JSONValue] = []
            for part in answer.parts {
                switch part {
                case .thinking(.encryptedReasoning(let summary, let content)):
                    // Another provider's reasoning: its summary as text, when kept.
                    if keepsThinking,
                        let text = ThinkingBlock.encryptedReasoning(summary: summary, content: content)
                            .textForAnotherProvider
                    {
                        blocks.append(BlockDTO(type: "text", text: text))
                        sentAsText = true
                    }
                case .thinking(let block):
                    if keepsThinking { blocks.append(MessagesRequestDTO.thinkingBlock(block)) }
                case .text(let text):
                    blocks.append(BlockDTO(type: "text", text: text, citations: citations.isEmpty ? nil : citations))
                    citations = []
                case .citation(let citation):
                    if let sent = MessagesRequestDTO.citation(citation) { citations.append(sent) }
                case .image(let image):
                    blocks.append(MessagesRequestDTO.imageBlock(image, takesImages: takesImages))
                case .toolCall(let call):
                    guard takesTools, case .object = call.arguments else {
                        blocks.append(
                            BlockDTO(
                                type: "text",
                                text: ToolRoundWireText.call(name: call.name, arguments: call.argumentsText)))
                        asText.append((call.id, call.name))
                        sentAsText = true
                        continue
                    }
                    let wireID = ids.wireID(for: call.id)
                    blocks.append(BlockDTO(type: "tool_use", id: wireID, name: call.name, input: call.arguments))
                    waiting.append(SentCall(id: call.id, wireID: wireID, name: call.name, message: wire.count))
                case .webSearch(.call(let id, let name, let input)):
                    blocks.append(BlockDTO(type: "server_tool_use", id: id, name: name, input: input))
                case .webSearch(.results(let callID, let content)):
                    blocks.append(
                        BlockDTO(type: "web_search_tool_result", tool_use_id: callID, content: .asSent(content)))
                case .toolResult, .webSearch(.item):
                    continue
                }
            }
            if !citations.isEmpty, let last = blocks.lastIndex(where: { $0.type == "text" }) {
                blocks[last].citations = (blocks[last].citations ?? []) + citations
            }
            append(blocks, role: "assistant")
        }

        /// Results: a `tool_result` block for each call waiting for it, first; text for the others.
        mutating func add(results: [ToolResult]) {
            var blocks: [BlockDTO] = []
            var texts: [BlockDTO] = []
            for result in results {
                if let index = waiting.firstIndex(where: { $0.id == result.callID }) {
                    let call = waiting.remove(at: index)
                    blocks.append(
                        BlockDTO(
                            type: "tool_result", tool_use_id: call.wireID,
                            content: MessagesRequestDTO.resultContent(result, takesImages: takesImages).map(
                                ContentDTO.blocks),
                            is_error: result.isError ? true : nil))
                } else {
                    let found = asText.firstIndex { $0.id == result.callID }
                    texts.append(
                        BlockDTO(
                            type: "text",
                            text: ToolRoundWireText.result(result, name: found.map { asText.remove(at: $0).name }))
                    )
                    sentAsText = true
                }
            }
            append(blocks + texts, role: "user")
        }

        /// Results answer the answer just before them: the `tool_use` blocks of calls still
        /// waiting when something else comes are each replaced by the text of the call.
        mutating func closeRound() {
            for call in waiting {
                guard wire.indices.contains(call.message),
                    let index = wire[call.message].content.firstIndex(where: { $0.id == call.wireID })
                else { continue }
                let arguments = wire[call.message].content[index].input?.jsonText ?? "{}"
                wire[call.message].content[index] = BlockDTO(
                    type: "text", text: ToolRoundWireText.call(name: call.name, arguments: arguments))
                sentAsText = true
            }
            waiting.removeAll()
        }

        /// A user turn after one that starts with results joins it (after them); any other is a
        /// turn of its own. Nothing to send, no turn.
        private mutating func append(_ blocks: [BlockDTO], role: String) {
            guard !blocks.isEmpty else { return }
            if role == "user", let last = wire.indices.last, wire[last].role == "user",
                wire[last].content.first?.type == "tool_result"
            {
                wire[last].content += blocks
            } else {
                wire.append(MessageDTO(role: role, content: blocks))
            }
        }
    }

    /// A person's message: its text, then each image.
    private static func userBlocks(_ message: ChatMessage, takesImages: Bool) -> [BlockDTO] {
        (message.content.isEmpty ? [] : [BlockDTO(type: "text", text: message.content)])
            + message.images.map { imageBlock($0, takesImages: takesImages) }
    }

    /// An image as a base64 `source` block, a PDF as a `document` block, or a note in its place
    /// (`SentImage`).
    private static func imageBlock(_ image: ImageAttachment, takesImages: Bool) -> BlockDTO {
        switch SentImage(image, takesImages: takesImages) {
        case .bytes(let type, let data):
            BlockDTO(type: "image", source: ImageSourceDTO(media_type: type, data: Base64.encode(data)))
        case .pdf(_, let data):
            BlockDTO(
                type: "document",
                source: ImageSourceDTO(media_type: ImageAttachment.pdfMimeType, data: Base64.encode(data)))
        case .note(let note):
            BlockDTO(type: "text", text: note)
        }
    }

    /// A citation of the server's web search as Anthropic takes it back
    /// (`web_search_result_location`: `cited_text`, `encrypted_index` unmodified, `title`, which
    /// may be null, and `url`); nil for one another provider made (a Responses `url_citation`).
    static func citation(_ citation: WebCitation) -> JSONValue? {
        guard let sent = citation.sent?.object, sent["type"]?.string == "web_search_result_location",
            sent["encrypted_index"]?.string != nil
        else { return nil }
        var kept: [String: JSONValue] = ["title": sent["title"] ?? .null]
        for key in ["type", "cited_text", "encrypted_index", "url"] { kept[key] = sent[key] }
        return .object(kept)
    }

    /// A thinking block as the provider sent it.
    private static func thinkingBlock(_ block: ThinkingBlock) -> BlockDTO {
        switch block {
        case .signed(let text, let signature): BlockDTO(type: "thinking", thinking: text, signature: signature)
        case .redacted(let data): BlockDTO(type: "redacted_thinking", data: data)
        case .encryptedReasoning: BlockDTO(type: "text", text: block.textForAnotherProvider ?? "")
        }
    }

    /// A result's content as text and image blocks; nil when it has none.
    private static func resultContent(_ result: ToolResult, takesImages: Bool) -> [BlockDTO]? {
        var blocks: [BlockDTO] = []
        for part in result.content {
            switch part {
            case .text(let text): if !text.isEmpty { blocks.append(BlockDTO(type: "text", text: text)) }
            case .image(let image): blocks.append(imageBlock(image, takesImages: takesImages))
            case .toolCall, .toolResult, .thinking, .webSearch, .citation: continue
            }
        }
        return blocks.isEmpty ? nil : blocks
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
