/// Any JSON value: a tool's arguments and the schema of its parameters, and whatever else is
/// read as JSON without a shape of its own.
///
/// Numbers are `Double`s (a whole number beyond 2^53 loses precision, as in JavaScript); an
/// object's members have no order, and a key that appears twice has its last value.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The member `key` of an object; nil for a missing key and for any other value.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The text, if this is a string.
    public var string: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// The elements, if this is an array.
    public var array: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }

    /// The members, if this is an object.
    public var object: [String: JSONValue]? {
        guard case .object(let members) = self else { return nil }
        return members
    }

    /// The number, if this is one.
    public var number: Double? {
        guard case .number(let value) = self else { return nil }
        return value
    }

    /// The number, if this is a whole number that fits an `Int` (`3`, `3.0`, `3e0`).
    public var wholeNumber: Int? {
        number.flatMap { Int(exactly: $0) }
    }

    /// The truth value, if this is `true` or `false`.
    public var bool: Bool? {
        guard case .bool(let value) = self else { return nil }
        return value
    }

    /// Whether this is an object.
    public var isObject: Bool {
        if case .object = self { return true }
        return false
    }
}
