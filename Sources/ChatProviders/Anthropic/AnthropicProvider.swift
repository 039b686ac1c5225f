import ChatDomain
import ChatHTTP
import ChatJSON
import ChatSystem

/// Anthropic's Messages API, natively: `POST /messages` with `anthropic-version`, answered as
/// Server-Sent Events (`AnthropicStreamDecoder`) or one JSON message; errors as
/// `{"type": "error", "error": {"type", "message"}}`; models from `GET /models`, a page at a time.
/// The key goes in `x-api-key` (`ServerGPTRepository` sets the placement; the engine writes it).
struct AnthropicProvider: ChatProvider {
    /// The API version every request names.
    static let apiVersion = "2023-06-01"
    /// How the key is sent: never as `Authorization`.
    static let keyPlacement = APIKeyPlacement.header("x-api-key")

    /// The thinking budget asked for (`thinking_budget`), if any.
    var thinkingBudget: Int? = nil
    /// Whether to mark the system prompt and the last user turn for prompt caching (`cache`).
    var cache = false
    /// Whether the person was told this run that parts of the conversation went as text.
    private let toldSentAsText = OnceFlag()

    let chatPath = "/messages"

    /// One request shape: nothing to fall back to.
    func variant(for request: ChatRequest) {}

    func chatRequest(for request: ChatRequest, variant: Void) throws(ChatError) -> ProviderRequest {
        let dto = try MessagesRequestDTO(request, thinkingBudget: thinkingBudget, cache: cache)
        guard let body = dto.jsonBytes else {
            throw .malformedResponse("could not encode the request: a number is not finite")
        }
        var shaped = ProviderRequest(
            method: "POST", path: chatPath,
            accept: request.settings.stream ? "text/event-stream" : "application/json",
            body: body, headers: Self.headers)
        shaped.sentAsText = dto.sentAsText && toldSentAsText.set()
        return shaped
    }

    func fallback(from variant: Void, after error: ChatError, detail: ServerErrorDetail?) -> Void? { nil }

    func fallbackWorked(_ variant: Void) {}

    func makeStreamDecoder() -> AnthropicStreamDecoder {
        AnthropicStreamDecoder()
    }

    var sampleEvents: [UInt8] {
        let delta = #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}}"#
        return Array(("event: content_block_delta\ndata: " + delta + "\n\n").utf8)
    }

    /// A 200 whose body is JSON: a whole message, or an error. Its blocks are handed on as the
    /// stream's are: text, thinking (as reasoning, then whole), tool calls together before the
    /// stop reason, the schema's `answer` call as text.
    func decodeWhole(_ body: [UInt8], _ emit: (ChatEvent) -> Void) throws(ChatError) {
        let message = (try? JSONReader.read(MessagesMessageDTO.self, from: body)) ?? nil
        if let message, message.type == "error" || message.error != nil {
            throw .streamError(message: message.error?.summary ?? "no message")
        }
        guard let message, let content = message.content else {
            let text = String(decoding: body.prefix(200), as: UTF8.self)
            throw .malformedResponse("the answer is neither an event stream nor a message: \(text)")
        }
        var calls: [ToolCall] = []
        for block in content {
            switch block.type {
            case "thinking":
                AnthropicStreamDecoder.emitContent(of: block, emit)
                emit(.thinking(.signed(text: block.thinking ?? "", signature: block.signature ?? "")))
            case "redacted_thinking":
                emit(.thinking(.redacted(data: block.data ?? "")))
            case "tool_use" where block.name == MessagesRequestDTO.answerToolName:
                if let text = block.input?.jsonText { emit(.text(text)) }
            case "tool_use":
                let input = block.input ?? .object([:])
                calls.append(ToolCall(id: block.id ?? "", name: block.name ?? "", arguments: input))
            default:
                AnthropicStreamDecoder.emitContent(of: block, emit)
            }
        }
        if !calls.isEmpty { emit(.toolCalls(calls)) }
        emit(.finished(reason: message.stop_reason ?? "end_turn"))
        if let usage = message.usage?.toDomain() { emit(.usage(usage)) }
    }

    func errorDetail(in body: [UInt8]) -> ServerErrorDetail? {
        guard let error = ((try? JSONReader.read(AnthropicErrorDTO.self, from: body)) ?? nil)?.error else {
            return nil
        }
        return ServerErrorDetail(message: error.summary)
    }

    /// `GET /models`, a page at a time: after the first, `after_id` names the last model seen.
    func modelsRequest(after cursor: String?) -> ProviderRequest {
        let query = cursor.map { "&after_id=" + Self.percentEncoded($0) } ?? ""
        return ProviderRequest(
            method: "GET", path: "/models?limit=1000" + query, accept: "application/json", headers: Self.headers,
            acceptCompression: true)
    }

    func modelPage(in body: [UInt8]) -> ModelPage? {
        guard let list = (try? JSONReader.read(AnthropicModelListDTO.self, from: body)) ?? nil, let data = list.data
        else { return nil }
        let models = data.compactMap { $0.id.map { ModelInfo(id: $0, ownedBy: "anthropic") } }
        let next = list.has_more == true ? list.last_id ?? models.last?.id : nil
        return ModelPage(models: models, nextCursor: next)
    }

    private static let headers = [(name: "anthropic-version", value: apiVersion)]

    /// `text` with every byte but unreserved ones (RFC 3986) percent-encoded, for a query value.
    private static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            let unreserved =
                (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
            if unreserved {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = Array("0123456789ABCDEF".utf8)
                result += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
            }
        }
        return result
    }
}
