import ChatDomain
import ChatHTTP
import ChatJSON
import ChatSystem

/// A tool call in an answer's message, or a fragment of one in a streamed delta: the first
/// fragment of a call has its `id` and `function.name`, the later ones more of
/// `function.arguments` (JSON text), each naming its call by `index`.
struct ToolCallDTO: JSONObjectDTO, Equatable {
    struct FunctionDTO: JSONObjectDTO, Equatable {
        var name: String?
        var arguments: String?

        mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
            switch key {
            case "name": try reader.read(&name)
            case "arguments": try reader.read(&arguments)
            default: try reader.skipValue()
            }
        }
    }

    var index: Int?
    var id: String?
    /// `"function"`.
    var type: String?
    var function: FunctionDTO?

    mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
        switch key {
        case "index": try reader.read(&index)
        case "id": try reader.read(&id)
        case "type": try reader.read(&type)
        case "function": try reader.read(&function)
        default: try reader.skipValue()
        }
    }
}
