import ChatDomain

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
