import ChatDomain
import ChatHTTP
import ChatJSON
import ChatSystem

/// An error as the Messages API sends it, in a response body or an `error` event:
/// `{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}`.
struct AnthropicErrorDTO: JSONObjectDTO, Equatable {
    /// The error itself.
    struct ErrorDTO: JSONObjectDTO, Equatable {
        var type: String?
        var message: String?

        mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
            switch key {
            case "type": try reader.read(&type)
            case "message": try reader.read(&message)
            default: try reader.skipValue()
            }
        }

        /// What it says: its message, else its type.
        var summary: String {
            message ?? type ?? "no message"
        }
    }

    var error: ErrorDTO?

    mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
        switch key {
        case "error": try reader.read(&error)
        default: try reader.skipValue()
        }
    }
}
