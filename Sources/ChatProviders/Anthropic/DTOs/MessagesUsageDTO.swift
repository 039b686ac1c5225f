import ChatDomain
import ChatHTTP
import ChatJSON
import ChatSystem

/// `usage` as the Messages API reports it: input tokens apart from those written to and read
/// from the prompt cache; the server tools' uses (`server_tool_use.web_search_requests`).
struct MessagesUsageDTO: JSONObjectDTO, Equatable {
    /// `{"web_search_requests": N, …}`.
    struct ServerToolUseDTO: JSONObjectDTO, Equatable {
        var web_search_requests: Int?

        mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
            switch key {
            case "web_search_requests": try reader.read(&web_search_requests)
            default: try reader.skipValue()
            }
        }
    }

    var input_tokens: Int?
    var output_tokens: Int?
    var cache_creation_input_tokens: Int?
    var cache_read_input_tokens: Int?
    var server_tool_use: ServerToolUseDTO?

    mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
        switch key {
        case "input_tokens": try reader.read(&input_tokens)
        case "output_tokens": try reader.read(&output_tokens)
        case "cache_creation_input_tokens": try reader.read(&cache_creation_input_tokens)
        case "cache_read_input_tokens": try reader.read(&cache_read_input_tokens)
        case "server_tool_use": try reader.read(&server_tool_use)
        default: try reader.skipValue()
        }
    }
}
