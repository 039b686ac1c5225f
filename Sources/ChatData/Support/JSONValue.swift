import ChatDomain

/// The domain's JSON value, which `JSONParser` reads: named here so that a file of this layer
/// that does not import ChatDomain (the config reader) can use it too.
typealias JSONValue = ChatDomain.JSONValue

extension JSONValue {
    /// How the value's type is named in messages.
    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
