import ChatDomain

/// The domain's JSON value, which `JSONReader` reads: named here so that a file of this layer
/// that does not import ChatDomain (the config reader) can use it too.
typealias JSONValue = ChatDomain.JSONValue

extension JSONValue {
    /// The value's type, as a config issue names it.
    var kind: JSONKind {
        switch self {
        case .null: .null
        case .bool: .boolean
        case .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }
}
