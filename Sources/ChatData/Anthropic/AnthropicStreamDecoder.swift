import ChatDomain

/// Turns the events of a Messages stream into `ChatEvent`s, per Anthropic's documented events,
/// and knows when the answer is complete: at `message_stop`, or at a stop reason followed by a
/// clean end of stream.
///
/// `text` blocks and `text_delta`s are answer text, `thinking` blocks and `thinking_delta`s
/// reasoning; `message_start` and `message_delta` report the usage (the latter cumulatively,
/// with the stop reason); an `error` event (e.g. `overloaded_error`) is `ChatError.streamError`,
/// text already shown kept. A thinking block's signature is kept, by block index, for replaying
/// it; `redacted_thinking` and `tool_use` blocks (and their `input_json_delta`s), `ping`,
/// `content_block_stop` and event and block types not known are passed over.
struct AnthropicStreamDecoder: StreamEventDecoder {
    /// `message_stop` arrived; everything after it is ignored.
    private(set) var isDone = false
    /// The stop reason `message_delta` gave, once it did.
    private(set) var stopReason: String?
    /// Each thinking block's signature (`signature_delta`), by block index.
    private(set) var signatures: [Int: String] = [:]
    /// The counts reported so far.
    private var usage = MessagesUsageDTO()
    /// Whether the latest counts were handed on.
    private var usageSent = true

    var isComplete: Bool { isDone || stopReason != nil }

    mutating func decode(_ event: RawSSEEvent, _ emit: (ChatEvent) -> Void) throws(ChatError) {
        guard !isDone else { return }
        if let legacy = event.legacyError { throw .streamError(message: legacy.trimmingASCIIWhitespace()) }
        let read = try? JSONReader.read(MessagesEventDTO.self, from: event.data)
        guard let dto = read ?? nil else {
            let text = String(decoding: event.data, as: UTF8.self).trimmingASCIIWhitespace()
            if event.type == "error" { throw .streamError(message: text.isEmpty ? "no message" : text) }
            // A comment-like keep-alive without data, or one Anthropic may add, carries nothing.
            if text.isEmpty { return }
            throw .malformedResponse("a stream event is not a JSON object: \(text.excerpt())")
        }
        if event.type == "error" || dto.type == "error" {
            throw .streamError(message: dto.error?.summary ?? "no message")
        }
        switch dto.type {
        case "message_start":
            if let reported = dto.message?.usage { take(reported) }
        case "content_block_start":
            Self.emitContent(of: dto.content_block, emit)
        case "content_block_delta":
            guard let delta = dto.delta else { return }
            if delta.type == "signature_delta", let index = dto.index, let signature = delta.signature {
                signatures[index, default: ""] += signature
            } else {
                Self.emitContent(of: delta, emit)
            }
        case "message_delta":
            if let reason = dto.delta?.stop_reason, !reason.isEmpty {
                stopReason = reason
                emit(.finished(reason: reason))
            }
            if let reported = dto.usage { take(reported) }
            emitUsage(emit)
        case "message_stop":
            emitUsage(emit)
            isDone = true
        default:
            return
        }
    }

    /// The answer or reasoning text a block or delta carries: `text` and `text_delta` answer
    /// text, `thinking` and `thinking_delta` reasoning; any other kind nothing.
    static func emitContent(of block: MessagesBlockDTO?, _ emit: (ChatEvent) -> Void) {
        switch block?.type {
        case "text", "text_delta":
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
        guard !usageSent, let domain = usage.toDomain() else { return }
        usageSent = true
        emit(.usage(domain))
    }
}
