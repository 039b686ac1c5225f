import ChatDomain

/// Any JSON value, as `JSONParser` reads it: the config file checked key by key with precise
/// messages, and the parts of a server's answer that chat uses, read leniently.
enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// An object's members; a key that appears twice has its last value.
    case object([String: JSONValue])

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

    /// The member `key` of an object; nil for a missing key and for any other value.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The text, if this is a string.
    var string: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// The elements, if this is an array.
    var array: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }

    /// The number, if this is one.
    var number: Double? {
        guard case .number(let value) = self else { return nil }
        return value
    }

    /// The number, if this is a whole number that fits an `Int` (`3`, `3.0`, `3e0`).
    var wholeNumber: Int? {
        number.flatMap { Int(exactly: $0) }
    }

    /// Whether this is an object.
    var isObject: Bool {
        if case .object = self { return true }
        return false
    }
}
