import ChatDomain
import ChatJSON

extension StoredPartDTO {
    /// The type of a tool call's part (a turn's query looks for it in the stored JSON).
    static let toolCallType = "tool_call"

    init(_ part: MessagePart) {
        switch part {
        case .text(let text):
            self.init(type: "text", text: text)
        case .image(let image):
            self.init(type: "image", image: StoredImageDTO(image))
        case .toolCall(let call):
            self.init(type: Self.toolCallType, id: call.id, name: call.name, arguments: call.arguments)
        case .toolResult(let result):
            self.init(
                type: "tool_result", id: result.callID, content: result.content.map(StoredPartDTO.init),
                is_error: result.isError ? true : nil)
        case .thinking(.signed(let text, let signature)):
            self.init(type: "thinking", text: text, signature: signature)
        case .thinking(.redacted(let data)):
            self.init(type: "redacted_thinking", data: data)
        case .thinking(.encryptedReasoning(let summary, let content)):
            self.init(type: "reasoning", data: content, summary: summary)
        case .webSearch(.call(let id, let name, let input)):
            self.init(type: "server_tool_use", id: id, name: name, arguments: input)
        case .webSearch(.results(let callID, let content)):
            self.init(type: "web_search_tool_result", id: callID, value: content)
        case .webSearch(.item(let item)):
            self.init(type: "web_search_call", value: item)
        case .citation(let citation):
            self.init(type: "citation", value: citation.sent, url: citation.url, title: citation.title)
        }
    }

    /// The part; nil for a type this release does not know, or one missing what its type needs.
    /// Images are read again from their files (`~/` expanded with `home`).
    func toDomain(home: String?) -> MessagePart? {
        switch type {
        case "text":
            return text.map(MessagePart.text)
        case "image":
            return image.map { .image($0.toDomain(home: home)) }
        case Self.toolCallType:
            guard let id, let name else { return nil }
            return .toolCall(ToolCall(id: id, name: name, arguments: arguments ?? .null))
        case "tool_result":
            guard let id else { return nil }
            let parts = (content ?? []).compactMap { $0.toDomain(home: home) }
            return .toolResult(ToolResult(callID: id, content: parts, isError: is_error ?? false))
        case "thinking":
            guard let text, let signature else { return nil }
            return .thinking(.signed(text: text, signature: signature))
        case "redacted_thinking":
            return data.map { .thinking(.redacted(data: $0)) }
        case "reasoning":
            return .thinking(.encryptedReasoning(summary: summary ?? [], content: data ?? ""))
        case "server_tool_use":
            guard let id, let name else { return nil }
            return .webSearch(.call(id: id, name: name, input: arguments ?? .object([:])))
        case "web_search_tool_result":
            guard let id, let value else { return nil }
            return .webSearch(.results(callID: id, content: value))
        case "web_search_call":
            return value.map { .webSearch(.item($0)) }
        case "citation":
            guard let url else { return nil }
            return .citation(WebCitation(url: url, title: title ?? "", sent: value))
        default:
            return nil
        }
    }

    /// Whether `message` holds a part that its text and images do not say: a tool call, a
    /// tool result, a web search, a citation. Such a message is kept with all its parts,
    /// thinking blocks included (the turn that led to calls is sent back with them); thinking
    /// alone is not kept.
    static func needsParts(_ message: ChatMessage) -> Bool {
        for part in message.parts {
            switch part {
            case .text, .image, .thinking: continue
            case .toolCall, .toolResult, .webSearch, .citation: return true
            }
        }
        return false
    }

    /// `message`'s parts as the history's `parts` column holds them: a JSON array of every
    /// part, in order; nil when its text and images say it all (the `content` and `images`
    /// columns), as for every message without tools.
    static func column(_ message: ChatMessage) -> String? {
        guard needsParts(message) else { return nil }
        var json = JSONText(capacity: 256)
        guard message.parts.map(StoredPartDTO.init).write(to: &json) else { return nil }
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// The parts in a `parts` column; nil when it is NULL or cannot be read (the `content` and
    /// `images` columns say what the message is then).
    static func parts(inColumn text: String?, home: String? = nil) -> [MessagePart]? {
        guard let text, let value = try? JSONParser.parse(Array(text.utf8)),
            let stored = [StoredPartDTO](json: value)
        else { return nil }
        return stored.compactMap { $0.toDomain(home: home) }
    }
}
