import ChatDomain
import ChatHTTP
import ChatJSON
import ChatSystem

/// What chat uses of a `chat.completion` (a whole answer) or of one `chat.completion.chunk` of a
/// streamed one — they have the same members, a chunk's choice a `delta` where a whole answer's
/// has a `message` — and of an error sent in their place. Read leniently (`JSONObjectDTO`):
/// every other member, whatever its type or value, is ignored.
struct ChatCompletionDTO: JSONObjectDTO, Equatable {
    struct ChoiceDTO: JSONObjectDTO, Equatable {
        /// The choice's index if it is a number; nil if it is missing or anything else.
        var index: Double?
        /// A streamed chunk's piece of the message.
        var delta: MessageDTO?
        /// A whole answer's message.
        var message: MessageDTO?
        var finish_reason: String?

        mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
            switch key {
            case "index": try reader.read(&index)
            case "delta": try reader.read(&delta)
            case "message": try reader.read(&message)
            case "finish_reason": try reader.read(&finish_reason)
            default: try reader.skipValue()
            }
        }
    }

    var choices: [ChoiceDTO]?
    var usage: UsageDTO?
    /// The model that answered, as the server names it (the usage's, for its price).
    var model: String?
    /// The members of an error, if the body is one instead (`error`, or `"object": "error"`).
    var error = APIErrorDTO()

    mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
        switch key {
        case "choices": try reader.read(&choices)
        case "usage": try reader.read(&usage)
        case "model": try reader.read(&model)
        default: try error.read(key, from: &reader)
        }
    }
}
