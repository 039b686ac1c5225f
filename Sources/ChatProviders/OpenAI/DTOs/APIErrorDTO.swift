import ChatDomain
import ChatHTTP
import ChatJSON
import ChatSystem

/// An error as OpenAI-compatible servers send it, in every shape seen in the wild:
/// `{"error": {"message", "type", "param", "code"}}`, `{"error": "text"}`, and the flat
/// `{"object": "error", "message": …}` of older vLLM. Read leniently (`JSONObjectDTO`); what it
/// says is its `summary`.
struct APIErrorDTO: JSONObjectDTO, Equatable {
    /// `error`: an object with the fields below, or text.
    indirect enum ErrorDTO: JSONReadable, Equatable {
        case object(APIErrorDTO)
        case text(String)

        static func read(from reader: inout JSONReader) throws(JSONSyntaxError) -> ErrorDTO? {
            if reader.current == JSONReader.quote { return .text(try reader.readString()) }
            return try APIErrorDTO.read(from: &reader).map(object)
        }
    }

    var error: ErrorDTO?
    /// `"object": "error"`: a flat error object, with the fields below beside it. (A chunk's
    /// `object` is another string, read without making a `String` of it.)
    var isErrorObject: Bool?
    var message: String?
    var type: String?
    /// The request parameter the error is about (`stream_options`, `temperature`), if named.
    var param: String?
    /// A string or a number (`"invalid_api_key"`, `429`).
    var code: JSONValue?

    mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
        switch key {
        case "error": try reader.read(&error)
        case "object": try reader.read(&isErrorObject, equalTo: "error")
        case "message": try reader.read(&message)
        case "type": try reader.read(&type)
        case "param": try reader.read(&param)
        case "code": try reader.read(&code)
        default: try reader.skipValue()
        }
    }
}
