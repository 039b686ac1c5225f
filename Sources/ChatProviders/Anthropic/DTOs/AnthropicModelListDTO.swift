import ChatDomain
import ChatHTTP
import ChatJSON
import ChatSystem

/// What chat uses of a page of `GET /models`: each model's id, and what names the next page.
struct AnthropicModelListDTO: JSONObjectDTO {
    struct ModelDTO: JSONObjectDTO {
        var id: String?

        mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
            switch key {
            case "id": try reader.read(&id)
            default: try reader.skipValue()
            }
        }
    }

    /// The page's models; nil when the body has none (it is not a model list).
    var data: [ModelDTO]?
    var has_more: Bool?
    var last_id: String?

    mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
        switch key {
        case "data": try reader.read(&data)
        case "has_more": try reader.read(&has_more)
        case "last_id": try reader.read(&last_id)
        default: try reader.skipValue()
        }
    }
}
