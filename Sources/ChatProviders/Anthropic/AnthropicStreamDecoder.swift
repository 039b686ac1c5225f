import ChatDomain
import ChatHTTP
import ChatJSON

/// Turns the events of a Messages stream into `ChatEvent`s, per Anthropic's documented events,
/// and knows when the answer is complete: at `message_stop`, or at a stop reason followed by a
/// clean end of stream.
///
/// `text` blocks and `text_delta`s are answer text, `thinking` blocks and `thinking_delta`s
/// reasoning; each thinking block ends (`content_block_stop`) as `.thinking`, its signature
/// (`signature_delta`) with it, and a `redacted_thinking` block is `.thinking` as it starts.
/// `tool_use` blocks are put together from their `input_json_delta`s and sent as one
/// `.toolCalls`, once, before the stop reason (or at `message_stop` if none came); the `answer`
/// tool a schema is asked with (`MessagesRequestDTO.answerToolName`) is answer text instead, its
/// input's pieces as they come. `message_start` and `message_delta` report the usage (the
/// latter cumulatively, with the stop reason); an `error` event (e.g. `overloaded_error`) is
/// `ChatError.streamError`, text already shown kept. `ping` and event and block types not known
/// are passed over.
///
/// The server's web search: a `server_tool_use` block is put together as a tool call is and,
/// at its end, is `.searching` (its query) and `.searched` (to be sent back); a
/// `web_search_tool_result` block, whole as it starts, is `.searched`; each citation of the text
/// (`citations_delta`, or a block's `citations`) is `.cited`.
struct AnthropicStreamDecoder: StreamEventDecoder {
    /// A block begun whose end matters.
    private enum OpenBlock {
        case thinking(text: String, signature: String)
        case toolUse(id: String, name: String, input: String)
        /// The schema's answer: its input is streamed as text.
        case answer
        /// A server tool's use (the web search): its input is put together as a tool call's.
        case serverTool(id: String, name: String, input: String)
    }

    /// `message_stop` arrived; everything after it is ignored.
    private(set) var isDone = false
    /// The stop reason `message_delta` gave, once it did.
    private(set) var stopReason: String?
    /// Thinking and tool-use blocks, by index, until they are handed on.
    private var open: [Int: OpenBlock] = [:]
    /// The tool calls ended, by block index.
    private var calls: [(index: Int, call: ToolCall)] = []
    private var callsSent = false
    /// The counts reported so far.
    private var usage = MessagesUsageDTO()
    /// Whether the latest counts were handed on.
    private var usageSent = true
    /// The model `message_start` named.
    private var model: String?
    /// The shape of the last event read in full.
    private var shape: JSONShape<MessagesEventDTO>?

    /// What an event read through `shape` gives: a text delta's text, or that it is another
    /// event (read in full then: they are few).
    private enum Shaped {
        case text(String?)
        case other
    }

    var isComplete: Bool { isDone || stopReason != nil }

    mutating func decode(_ event: RawSSEEvent, _ emit: (ChatEvent) -> Void) throws(ChatError) {
        guard !isDone else { return }
        if let legacy = event.legacyError { throw .streamError(message: legacy.trimmingASCIIWhitespace()) }
        // An event shaped like the last one read in full (each `text_delta` of a block after
        // its first) is read through that one's shape, in place (`JSONShape`): a text delta's
        // text is all that leaves it; any other event is read in full.
        let shaped = shape?.read(event.data) { dto -> Shaped in
            guard dto.type == "content_block_delta", let delta = dto.delta, delta.type == "text_delta",
                delta.citations == nil
            else { return .other }
            return .text(delta.text)
        }
        switch shaped {
        case .text(let text)?:
            if let text, !text.isEmpty { emit(.text(text)) }
            return
        case .other?, nil:
            break
        }
        let read = try? JSONShape<MessagesEventDTO>.reading(event.data)
        guard let dto = read?.0 else {
            let text = String(decoding: event.data, as: UTF8.self).trimmingASCIIWhitespace()
            if event.type == "error" { throw .streamError(message: text.isEmpty ? "no message" : text) }
            // A comment-like keep-alive without data, or one Anthropic may add, carries nothing.
            if text.isEmpty { return }
            throw .malformedResponse("a stream event is not a JSON object: \(text.excerpt())")
        }
        if let next = read?.1 { shape = next }
        try handle(dto, event: event.type, emit).get()
    }

    /// One event read: `type` is its SSE event type.
    private mutating func handle(_ dto: MessagesEventDTO, event type: String, _ emit: (ChatEvent) -> Void) -> Result<
        Void, ChatError
    > {
        // Nearly every event is a block's delta: told first.
        if dto.type == "content_block_delta" {
            if let delta = dto.delta { add(delta, at: dto.index ?? 0, emit) }
            return .success(())
        }
        if type == "error" || dto.type == "error" {
            if dto.error?.type == "overloaded_error" {
                return .failure(.overloaded(message: dto.error?.summary ?? "Overloaded"))
            }
            return .failure(.streamError(message: dto.error?.summary ?? "no message"))
        }
        switch dto.type {
        case "message_start":
            if let reported = dto.message?.usage { take(reported) }
            model = dto.message?.model
        case "content_block_start":
            guard let block = dto.content_block else { break }
            start(block, at: dto.index ?? 0, emit)
        case "content_block_stop":
            stop(at: dto.index ?? 0, emit)
        case "message_delta":
            if let reason = dto.delta?.stop_reason, !reason.isEmpty {
                stopReason = reason
                sendCalls(emit)
                emit(.finished(reason: reason))
            }
            if let reported = dto.usage { take(reported) }
            emitUsage(emit)
        case "message_stop":
            sendCalls(emit)
            emitUsage(emit)
            isDone = true
        default:
            break
        }
        return .success(())
    }

    private mutating func start(_ block: MessagesBlockDTO, at index: Int, _ emit: (ChatEvent) -> Void) {
        switch block.type {
        case "thinking":
            Self.emitContent(of: block, emit)
            open[index] = .thinking(text: block.thinking ?? "", signature: block.signature ?? "")
        case "redacted_thinking":
            emit(.thinking(.redacted(data: block.data ?? "")))
        case "tool_use" where block.name == MessagesRequestDTO.answerToolName:
            open[index] = .answer
        case "server_tool_use":
            let given = block.input.flatMap { $0 == .object([:]) ? nil : $0.jsonText } ?? ""
            open[index] = .serverTool(id: block.id ?? "", name: block.name ?? "", input: given)
        case "web_search_tool_result":
            emit(AnthropicWebSearch.results(of: block))
        case "tool_use":
            // The input comes in `input_json_delta`s; one given whole (`{}` when streamed) is
            // what they add to when it has members.
            let given = block.input.flatMap { $0 == .object([:]) ? nil : $0.jsonText } ?? ""
            open[index] = .toolUse(id: block.id ?? "", name: block.name ?? "", input: given)
        default:
            Self.emitContent(of: block, emit)
        }
    }

    private mutating func add(_ delta: MessagesBlockDTO, at index: Int, _ emit: (ChatEvent) -> Void) {
        // Nearly every delta is answer text.
        if delta.type == "text_delta", delta.citations == nil {
            if let text = delta.text, !text.isEmpty { emit(.text(text)) }
            return
        }
        switch (delta.type, open[index]) {
        case ("thinking_delta", .thinking(var text, let signature)?):
            Self.emitContent(of: delta, emit)
            open[index] = nil  // so that the text grows in place, uniquely held
            text += delta.thinking ?? ""
            open[index] = .thinking(text: text, signature: signature)
        case ("signature_delta", .thinking(let text, let signature)?):
            open[index] = .thinking(text: text, signature: signature + (delta.signature ?? ""))
        case ("input_json_delta", .toolUse(let id, let name, var input)?):
            open[index] = nil
            input += delta.partial_json ?? ""
            open[index] = .toolUse(id: id, name: name, input: input)
        case ("input_json_delta", .answer?):
            if let piece = delta.partial_json, !piece.isEmpty { emit(.text(piece)) }
        case ("input_json_delta", .serverTool(let id, let name, var input)?):
            open[index] = nil
            input += delta.partial_json ?? ""
            open[index] = .serverTool(id: id, name: name, input: input)
        case ("citations_delta", _):
            if let citation = delta.citation.flatMap(AnthropicWebSearch.citation) { emit(.cited(citation)) }
        default:
            Self.emitContent(of: delta, emit)
        }
    }

    private mutating func stop(at index: Int, _ emit: (ChatEvent) -> Void) {
        switch open.removeValue(forKey: index) {
        case .thinking(let text, let signature)?:
            emit(.thinking(.signed(text: text, signature: signature)))
        case .toolUse(let id, let name, let input)?:
            calls.append((index, ToolCall(id: id, name: name, argumentsText: input)))
        case .serverTool(let id, let name, let input)?:
            AnthropicWebSearch.call(id: id, name: name, inputText: input).forEach(emit)
        case .answer?, nil:
            return
        }
    }

    /// Sends the tool calls, once, if there are any: those ended and any still open.
    private mutating func sendCalls(_ emit: (ChatEvent) -> Void) {
        guard !callsSent else { return }
        for (index, block) in open {
            if case .toolUse(let id, let name, let input) = block {
                calls.append((index, ToolCall(id: id, name: name, argumentsText: input)))
            }
        }
        open = open.filter { if case .toolUse = $0.value { false } else { true } }
        guard !calls.isEmpty else { return }
        callsSent = true
        emit(.toolCalls(calls.sorted { $0.index < $1.index }.map(\.call)))
    }

    /// The answer or reasoning text a block or delta carries: `text` and `text_delta` answer
    /// text, `thinking` and `thinking_delta` reasoning; any other kind nothing.
    static func emitContent(of block: MessagesBlockDTO?, _ emit: (ChatEvent) -> Void) {
        switch block?.type {
        case "text", "text_delta":
            // A block's citations before its text, as a stream's `citations_delta`s come: a
            // message keeps them before the text they cite.
            for citation in block?.citations ?? [] {
                if let cited = AnthropicWebSearch.citation(citation) { emit(.cited(cited)) }
            }
            if let text = block?.text, !text.isEmpty { emit(.text(text)) }
        case "thinking", "thinking_delta":
            if let thinking = block?.thinking, !thinking.isEmpty { emit(.reasoning(thinking)) }
        default:
            return
        }
    }

    private mutating func take(_ reported: MessagesUsageDTO) {
        usage = usage.updated(by: reported)
        usageSent = false
    }

    private mutating func emitUsage(_ emit: (ChatEvent) -> Void) {
        guard !usageSent, var domain = usage.toDomain() else { return }
        usageSent = true
        domain.model = model
        emit(.usage(domain))
    }
}
