import ChatDomain

/// The concise form of a response schema, in the spirit of llm's: fields separated by commas (or
/// by newlines, when there are any: then a description may hold commas), each `name`, `name
/// type` or either followed by `: description`. Types: `str` (the default; `string`), `int`
/// (`integer`), `float` (`number`) and `bool` (`boolean`). It makes an object schema ready for
/// strict mode: every field required, no other allowed (`additionalProperties: false`).
///
///     name, age int, bio: a one-sentence biography
enum ConciseSchema {
    /// The JSON Schema of the object `text` describes.
    static func schema(_ text: String) throws(SchemaProblem) -> JSONValue {
        let separator: Character = text.contains("\n") ? "\n" : ","
        var properties: [String: JSONValue] = [:]
        var names: [JSONValue] = []
        for field in text.split(separator: separator, omittingEmptySubsequences: false) {
            let field = field.trimmingCharacters(where: \.isWhitespace)
            guard !field.isEmpty else { continue }
            let (name, property) = try Self.field(field)
            guard properties[name] == nil else { throw .repeatedName(name) }
            properties[name] = property
            names.append(.string(name))
        }
        guard !names.isEmpty else { throw .noFields }
        return strictObject(properties, required: names)
    }

    /// `{"type": "object", "properties": …, "required": …, "additionalProperties": false}`.
    static func strictObject(_ properties: [String: JSONValue], required: [JSONValue]) -> JSONValue {
        .object([
            "type": .string("object"), "properties": .object(properties), "required": .array(required),
            "additionalProperties": .bool(false),
        ])
    }

    /// One field: its name, and its property's schema.
    private static func field(_ text: String) throws(SchemaProblem) -> (String, JSONValue) {
        let head: Substring
        var property: [String: JSONValue] = [:]
        if let colon = text.firstIndex(of: ":") {
            head = text[..<colon]
            let description = text[text.index(after: colon)...].trimmingCharacters(where: \.isWhitespace)
            if !description.isEmpty { property["description"] = .string(description) }
        } else {
            head = Substring(text)
        }
        let words = head.split(whereSeparator: \.isWhitespace)
        guard (1...2).contains(words.count) else { throw .badField(text) }
        let name = String(words[0])
        guard isName(name) else { throw .badName(name) }
        let typeWord = words.count == 2 ? words[1].lowercased() : "str"
        guard let type = types[typeWord] else { throw .unknownType(field: name, type: String(words[1])) }
        property["type"] = .string(type)
        return (name, .object(property))
    }

    /// The concise form's type words and the JSON Schema types they stand for.
    static let types: [String: String] = [
        "str": "string", "string": "string", "int": "integer", "integer": "integer", "float": "number",
        "number": "number", "bool": "boolean", "boolean": "boolean",
    ]

    private static func isName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic)
        else { return false }
        return name.unicodeScalars.allSatisfy {
            $0 == "_" || $0 == "-" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)))
        }
    }
}
