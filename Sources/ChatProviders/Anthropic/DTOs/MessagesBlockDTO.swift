import ChatDomain
import ChatHTTP
import ChatJSON
import ChatSystem

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
    /// `tool_use`'s id and tool name, and its input: `{}` when streamed (the input comes as
    /// `input_json_delta`s), the whole object in a whole answer.
    var id: String?
    var name: String?
    var input: JSONValue?
    /// `input_json_delta`'s piece of the input's JSON text.
    var partial_json: String?
    /// A `web_search_tool_result`'s search (`server_tool_use`'s id) and what it found, as sent.
    var tool_use_id: String?
    var content: JSONValue?
    /// A text block's citations (a whole answer's), and `citations_delta`'s one.
    var citations: [JSONValue]?
    var citation: JSONValue?

    mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
        switch key {
        case "type": try reader.read(&type)
        case "text": try reader.read(&text)
        case "thinking": try reader.read(&thinking)
        case "signature": try reader.read(&signature)
        case "data": try reader.read(&data)
        case "stop_reason": try reader.read(&stop_reason)
        case "id": try reader.read(&id)
        case "name": try reader.read(&name)
        case "input": try reader.read(&input)
        case "partial_json": try reader.read(&partial_json)
        case "tool_use_id": try reader.read(&tool_use_id)
        case "content": try reader.read(&content)
        case "citations": try reader.read(&citations)
        case "citation": try reader.read(&citation)
        default: try reader.skipValue()
        }
    }
}
