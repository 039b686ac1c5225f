import ChatDomain

extension JSONValue: JSONRepresentable {
    /// Writes the value as every JSON of chat is written: an object's keys sorted (by their
    /// UTF-8 bytes, as `.sortedKeys`), numbers as `JSONText.double` writes them.
    public func write(to json: inout JSONText) -> Bool {
        switch self {
        case .null:
            json.raw("null")
        case .bool(let value):
            json.bool(value)
        case .number(let value):
            return json.double(value)
        case .string(let text):
            json.string(text)
        case .array(let elements):
            return elements.write(to: &json)
        case .object(let members):
            return members.write(to: &json)
        }
        return true
    }

    public init?(json: JSONValue) {
        self = json
    }

    /// The value as compact JSON text on one line (a string's line breaks escaped), as chat
    /// writes its JSON; nil when it holds a number JSON cannot (infinity, NaN). `--json` writes
    /// its lines with it.
    public var jsonText: String? {
        var json = JSONText(capacity: 128)
        guard write(to: &json) else { return nil }
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// The value JSON `text` holds, read by chat's one JSON reader; nil when it is not JSON.
    public init?(jsonText text: String) {
        guard let value = try? JSONParser.parse(text) else { return nil }
        self = value
    }

    /// The value as indented JSON text, as `/save` writes (a tool call's arguments shown to
    /// the person); nil as for `jsonText`.
    public var prettyJSONText: String? {
        var json = JSONText(capacity: 128, pretty: true)
        guard write(to: &json) else { return nil }
        return String(decoding: json.bytes, as: UTF8.self)
    }
}
