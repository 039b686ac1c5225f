import ChatDomain
import ChatHTTP
import ChatJSON
import ChatSystem

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
