import ChatDomain

/// A DTO written and read as a JSON object through one list of its fields: adding a field is
/// adding it to the list. Written by `JSONText` as `JSONEncoder` writes (keys sorted), read from
/// what `JSONParser` gives with `Decodable`'s strictness: a required field missing, or any field
/// of another type, fails the whole; members not listed are ignored.
package protocol JSONFields: JSONRepresentable {
    /// The value reading starts from; every field read replaces its part.
    init()
    /// Each field once, sorted by name (`sortedByName()`), as `.sortedKeys` wrote them.
    static var fields: [JSONField<Self>] { get }
}

extension JSONFields {
    package func write(to json: inout JSONText) -> Bool {
        json.open(UInt8(ascii: "{"))
        for field in Self.fields {
            guard field.write(self, &json, field.quotedName) else { return false }
        }
        json.close(UInt8(ascii: "}"))
        return true
    }

    package init?(json: JSONValue) {
        guard case .object(let object) = json else { return nil }
        var result = Self()
        for field in Self.fields {
            guard field.read(object, &result) else { return nil }
        }
        self = result
    }

    /// The object as bytes, compact or indented; nil when JSON cannot hold a value in it.
    package func jsonBytes(capacity: Int = 64, pretty: Bool = false) -> [UInt8]? {
        var json = JSONText(capacity: capacity, pretty: pretty)
        guard write(to: &json) else { return nil }
        return json.bytes
    }

    /// The object `bytes` hold; nil when they are not JSON or not of this shape.
    package init?(jsonBytes bytes: [UInt8]) {
        guard let value = try? JSONParser.parse(bytes) else { return nil }
        self.init(json: value)
    }
}
