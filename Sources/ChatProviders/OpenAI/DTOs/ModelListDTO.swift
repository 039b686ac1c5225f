import ChatDomain
import ChatHTTP
import ChatJSON
import ChatSystem

/// What chat uses of the answer to `GET /models`: each model's id and owner.
struct ModelListDTO: JSONObjectDTO {
    struct ModelDTO: JSONObjectDTO {
        var id: String?
        var owned_by: String?

        mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
            switch key {
            case "id": try reader.read(&id)
            case "owned_by": try reader.read(&owned_by)
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
