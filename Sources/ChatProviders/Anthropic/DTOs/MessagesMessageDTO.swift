import ChatDomain
import ChatHTTP
import ChatJSON
import ChatSystem

/// A message as `message_start` carries it, or a whole answer (`--no-stream`); an error body has
/// `type` "error" and `error` instead.
struct MessagesMessageDTO: JSONObjectDTO, Equatable {
    var type: String?
    var content: [MessagesBlockDTO]?
    var stop_reason: String?
    var usage: MessagesUsageDTO?
    /// The model that answered, as the server names it.
    var model: String?
    var error: AnthropicErrorDTO.ErrorDTO?

    mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
        switch key {
        case "type": try reader.read(&type)
        case "content": try reader.read(&content)
        case "stop_reason": try reader.read(&stop_reason)
        case "usage": try reader.read(&usage)
        case "model": try reader.read(&model)
        case "error": try reader.read(&error)
        default: try reader.skipValue()
        }
    }
}
