import ChatDomain
import ChatHTTP
import ChatJSON
import ChatSystem

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
