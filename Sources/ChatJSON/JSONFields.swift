import ChatDomain

/// A DTO written and read as a JSON object through one list of its fields: adding a field is
/// adding it to the list. Written by `JSONText` (keys sorted), read strictly from what
/// `JSONParser` gives: a required field missing, or any field of another type, fails the whole;
/// members not listed are ignored.
public protocol JSONFields: JSONRepresentable {
    /// The value reading starts from; every field read replaces its part.
    init()
    /// Each field once, sorted by name (`sortedByName()`), as `.sortedKeys` wrote them.
    static var fields: [JSONField<Self>] { get }
}

extension JSONFields {
    public func write(to json: inout JSONText) -> Bool {
        json.open(UInt8(ascii: "{"))
        for field in Self.fields {
            guard field.write(self, &json, field.quotedName) else { return false }
        }
        json.close(UInt8(ascii: "}"))
        return true
    }

    public init?(json: JSONValue) {
        guard case .object(let object) = json else { return nil }
        var result = Self()
        for field in Self.fields {
            guard field.read(object, &result) else { return nil }
        }
        self = result
    }
}
