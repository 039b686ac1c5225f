/// An error as OpenAI-compatible servers send it, in every shape seen in the wild:
/// `{"error": {"message", "type", "param", "code"}}`, `{"error": "text"}`, and the flat
/// `{"object": "error", "message": …}` of older vLLM. Read leniently: a field of another type
/// than chat reads it as is left out.
struct APIErrorDTO: Equatable {
    /// The server's words: the error's `message`, else its `type`, else "no message".
    var message: String
    var type: String?
    /// The request parameter the error is about (`stream_options`, `temperature`), if named.
    var param: String?
    /// A string or a number (`"invalid_api_key"`, `429`), as text.
    var code: String?
}

extension APIErrorDTO {
    /// The error `json` holds: an `error` that is an object or a string, or a flat error object;
    /// with `flat` (for text already known to be an error: `event: error`, an `error:` field), a
    /// bare `{"message": …}` too. Nil if it holds none.
    init?(json: JSONValue, flat: Bool = false) {
        switch json["error"] {
        case .object?:
            let detail = json["error"] ?? .null
            self.init(fields: detail)
        case .string(let text)?:
            self.init(message: text)
        default:
            if json["object"]?.string == "error" {
                self.init(fields: json)
            } else if flat, let message = json["message"]?.string {
                self.init(message: message)
            } else {
                return nil
            }
        }
    }

    /// The error whose `message`, `type`, `param` and `code` are members of `object`.
    private init(fields object: JSONValue) {
        let type = object["type"]?.string
        let code: String?
        switch object["code"] {
        case .string(let text)?: code = text
        case .number(let number)?: code = object["code"]?.wholeNumber.map(String.init) ?? String(number)
        default: code = nil
        }
        self.init(
            message: object["message"]?.string ?? type ?? "no message", type: type, param: object["param"]?.string,
            code: code)
    }
}
