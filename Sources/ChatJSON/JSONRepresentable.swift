import ChatDomain

/// A value the Data layer writes as JSON (into `JSONText`) and reads back (from the `JSONValue`
/// that `JSONParser` gives): the JSON types here, and DTOs through their field list
/// (`JSONFields`).
public protocol JSONRepresentable {
    /// Writes the value; false when JSON cannot hold it (a number that is not finite).
    func write(to json: inout JSONText) -> Bool
    /// The value `json` holds; nil when it holds another type.
    init?(json: JSONValue)
}

extension String: JSONRepresentable {
    public func write(to json: inout JSONText) -> Bool {
        json.string(self)
        return true
    }

    public init?(json: JSONValue) {
        guard let text = json.string else { return nil }
        self = text
    }
}

extension Bool: JSONRepresentable {
    public func write(to json: inout JSONText) -> Bool {
        json.bool(self)
        return true
    }

    public init?(json: JSONValue) {
        guard case .bool(let value) = json else { return nil }
        self = value
    }
}

extension Int: JSONRepresentable {
    public func write(to json: inout JSONText) -> Bool {
        json.int(self)
        return true
    }

    /// A whole number that fits (`3`, `3.0`, `3e0`).
    public init?(json: JSONValue) {
        guard let value = json.wholeNumber else { return nil }
        self = value
    }
}

extension Double: JSONRepresentable {
    public func write(to json: inout JSONText) -> Bool {
        json.double(self)
    }

    public init?(json: JSONValue) {
        guard let value = json.number else { return nil }
        self = value
    }
}

extension Array: JSONRepresentable where Element: JSONRepresentable {
    public func write(to json: inout JSONText) -> Bool {
        json.open(UInt8(ascii: "["))
        for element in self {
            json.element()
            guard element.write(to: &json) else { return false }
        }
        json.close(UInt8(ascii: "]"))
        return true
    }

    /// Every element, each of the element's type; nil when one is not.
    public init?(json: JSONValue) {
        guard let elements = json.array else { return nil }
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for element in elements {
            guard let value = Element(json: element) else { return nil }
            result.append(value)
        }
        self = result
    }
}

extension Dictionary: JSONRepresentable where Key == String, Value: JSONRepresentable {
    /// An object, its keys sorted by their UTF-8 bytes (as `.sortedKeys`).
    public func write(to json: inout JSONText) -> Bool {
        json.open(UInt8(ascii: "{"))
        for key in keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            json.member(named: key)
            guard self[key]?.write(to: &json) ?? false else { return false }
        }
        json.close(UInt8(ascii: "}"))
        return true
    }

    /// Every member, each of the value's type; nil when one is not.
    public init?(json: JSONValue) {
        guard let members = json.object else { return nil }
        var result: [String: Value] = [:]
        for (key, member) in members {
            guard let value = Value(json: member) else { return nil }
            result[key] = value
        }
        self = result
    }
}

extension JSONRepresentable {
    /// The value as JSON bytes, compact or indented, written as every JSON of chat is; nil when
    /// JSON cannot hold a value in it.
    public func jsonBytes(capacity: Int = 64, pretty: Bool = false) -> [UInt8]? {
        var json = JSONText(capacity: capacity, pretty: pretty)
        guard write(to: &json) else { return nil }
        return json.bytes
    }

    /// The value `bytes` hold; nil when they are not JSON or not of this shape.
    public init?(jsonBytes bytes: [UInt8]) {
        guard let value = try? JSONParser.parse(bytes) else { return nil }
        self.init(json: value)
    }
}
