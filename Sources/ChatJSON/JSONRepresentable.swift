import ChatDomain

/// A value the Data layer writes as JSON (into `JSONText`) and reads back (from the `JSONValue`
/// that `JSONParser` gives): the JSON types here, and DTOs through their field list
/// (`JSONFields`).
package protocol JSONRepresentable {
    /// Writes the value; false when JSON cannot hold it (a number that is not finite).
    func write(to json: inout JSONText) -> Bool
    /// The value `json` holds; nil when it holds another type.
    init?(json: JSONValue)
}

extension String: JSONRepresentable {
    package func write(to json: inout JSONText) -> Bool {
        json.string(self)
        return true
    }

    package init?(json: JSONValue) {
        guard let text = json.string else { return nil }
        self = text
    }
}

extension Bool: JSONRepresentable {
    package func write(to json: inout JSONText) -> Bool {
        json.bool(self)
        return true
    }

    package init?(json: JSONValue) {
        guard case .bool(let value) = json else { return nil }
        self = value
    }
}

extension Int: JSONRepresentable {
    package func write(to json: inout JSONText) -> Bool {
        json.int(self)
        return true
    }

    /// A whole number that fits (`3`, `3.0`, `3e0`).
    package init?(json: JSONValue) {
        guard let value = json.wholeNumber else { return nil }
        self = value
    }
}

extension Double: JSONRepresentable {
    package func write(to json: inout JSONText) -> Bool {
        json.double(self)
    }

    package init?(json: JSONValue) {
        guard let value = json.number else { return nil }
        self = value
    }
}

extension Array: JSONRepresentable where Element: JSONRepresentable {
    package func write(to json: inout JSONText) -> Bool {
        json.open(UInt8(ascii: "["))
        for element in self {
            json.element()
            guard element.write(to: &json) else { return false }
        }
        json.close(UInt8(ascii: "]"))
        return true
    }

    /// Every element, each of the element's type; nil when one is not.
    package init?(json: JSONValue) {
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
