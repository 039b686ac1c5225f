import ChatDomain
import ChatHTTP
import ChatJSON
import ChatSystem

/// What chat uses of the answer to `GET /models`: each model's id and owner, and its context
/// window where the server says it (vLLM's `max_model_len`).
struct ModelListDTO: JSONObjectDTO {
    struct ModelDTO: JSONObjectDTO {
        var id: String?
        var owned_by: String?
        var max_model_len: Int? = nil

        mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
            switch key {
            case "id": try reader.read(&id)
            case "owned_by": try reader.read(&owned_by)
            case "max_model_len": try reader.read(&max_model_len)
            default: try reader.skipValue()
            }
        }
    }

    /// The list; nil when the body has none (it is not a model list).
    var data: [ModelDTO]?

    mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
        switch key {
        case "data": try reader.read(&data)
        default: try reader.skipValue()
        }
    }
}
