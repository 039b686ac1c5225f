/// What chat uses of one event of a Messages stream (`message_start`, `content_block_start`,
/// `content_block_delta`, `message_delta`, `error`, …), each told by its `type`. Read leniently
/// (`JSONObjectDTO`): every other member, whatever its type or value, is ignored.
struct MessagesEventDTO: JSONObjectDTO, Equatable {
    var type: String?
    /// The content block an event is about.
    var index: Int?
    /// `message_start`'s message: its usage so far.
    var message: MessagesMessageDTO?
    /// `content_block_start`'s block.
    var content_block: MessagesBlockDTO?
    /// `content_block_delta`'s piece of the block (`text_delta`, `thinking_delta`,
    /// `signature_delta`, `input_json_delta`), or `message_delta`'s `stop_reason`.
    var delta: MessagesBlockDTO?
    /// `message_delta`'s usage: cumulative output tokens.
    var usage: MessagesUsageDTO?
    /// An `error` event's error.
    var error: AnthropicErrorDTO.ErrorDTO?

    mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
        switch key {
        case "type": try reader.read(&type)
        case "index": try reader.read(&index)
        case "message": try reader.read(&message)
        case "content_block": try reader.read(&content_block)
        case "delta": try reader.read(&delta)
        case "usage": try reader.read(&usage)
        case "error": try reader.read(&error)
        default: try reader.skipValue()
        }
    }
}

/// A message as `message_start` carries it, or a whole answer (`--no-stream`); an error body has
/// `type` "error" and `error` instead.
struct MessagesMessageDTO: JSONObjectDTO, Equatable {
    var type: String?
    var content: [MessagesBlockDTO]?
    var stop_reason: String?
    var usage: MessagesUsageDTO?
    var error: AnthropicErrorDTO.ErrorDTO?

    mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
        switch key {
        case "type": try reader.read(&type)
        case "content": try reader.read(&content)
        case "stop_reason": try reader.read(&stop_reason)
        case "usage": try reader.read(&usage)
        case "error": try reader.read(&error)
        default: try reader.skipValue()
        }
    }
}

/// A content block (`text`, `thinking`, `redacted_thinking`, `tool_use`, …) or a delta of one
/// (`text_delta`, `thinking_delta`, `signature_delta`, `input_json_delta`); `message_delta`'s
/// delta has the `stop_reason`.
struct MessagesBlockDTO: JSONObjectDTO, Equatable {
    var type: String?
    var text: String?
    var thinking: String?
    var signature: String?
    /// `redacted_thinking`'s encrypted thinking.
    var data: String?
    var stop_reason: String?

    mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
        switch key {
        case "type": try reader.read(&type)
        case "text": try reader.read(&text)
        case "thinking": try reader.read(&thinking)
        case "signature": try reader.read(&signature)
        case "data": try reader.read(&data)
        case "stop_reason": try reader.read(&stop_reason)
        default: try reader.skipValue()
        }
    }
}

/// `usage` as the Messages API reports it: input tokens apart from those written to and read
/// from the prompt cache.
struct MessagesUsageDTO: JSONObjectDTO, Equatable {
    var input_tokens: Int?
    var output_tokens: Int?
    var cache_creation_input_tokens: Int?
    var cache_read_input_tokens: Int?

    mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
        switch key {
        case "input_tokens": try reader.read(&input_tokens)
        case "output_tokens": try reader.read(&output_tokens)
        case "cache_creation_input_tokens": try reader.read(&cache_creation_input_tokens)
        case "cache_read_input_tokens": try reader.read(&cache_read_input_tokens)
        default: try reader.skipValue()
        }
    }
}
