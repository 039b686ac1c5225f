/// Checks a JSON value against a JSON Schema, as far as structured answers use one: `type` (a
/// name or a list of them), `enum` and `const`, an object's `properties`, `required` and
/// `additionalProperties`, an array's `items`, and `anyOf` / `oneOf` (any alternative that
/// matches). Other keywords (formats, lengths, ranges) are not checked: the server's strict mode
/// is what enforces the schema; this catches a server that ignored it.
public enum SchemaValidator {
    /// The first place `value` does not match `schema` (members in order of their names,
    /// elements in order), or nil when it matches.
    public static func firstMismatch(in value: JSONValue, against schema: JSONValue) -> SchemaMismatch? {
        check(value, schema, at: "$")
    }

    private static func check(_ value: JSONValue, _ schema: JSONValue, at path: String) -> SchemaMismatch? {
        // `true` and `{}` allow anything; `false` nothing.
        if schema == .bool(false) { return SchemaMismatch(path: path, problem: .noAlternative) }
        guard case .object(let rules) = schema else { return nil }
        if let alternatives = rules["anyOf"]?.array ?? rules["oneOf"]?.array, !alternatives.isEmpty {
            let failures = alternatives.map { check(value, $0, at: path) }
            if !failures.contains(where: { $0 == nil }) {
                return failures.count == 1 ? failures[0] : SchemaMismatch(path: path, problem: .noAlternative)
            }
        }
        if let named = rules["type"] {
            let types = named.array?.compactMap(\.string) ?? named.string.map { [$0] } ?? []
            if !types.isEmpty && !types.contains(where: { matches(value, $0) }) {
                return SchemaMismatch(path: path, problem: .type(expected: types, found: typeName(of: value)))
            }
        }
        if let options = rules["enum"]?.array, !options.contains(value) {
            return SchemaMismatch(path: path, problem: .notOneOf(options, found: value))
        }
        if let constant = rules["const"], constant != value {
            return SchemaMismatch(path: path, problem: .notOneOf([constant], found: value))
        }
        switch value {
        case .object(let members): return checkMembers(members, rules, at: path)
        case .array(let elements): return checkElements(elements, rules, at: path)
        default: return nil
        }
    }

    private static func checkMembers(
        _ members: [String: JSONValue], _ rules: [String: JSONValue], at path: String
    ) -> SchemaMismatch? {
        for name in rules["required"]?.array?.compactMap(\.string) ?? [] where members[name] == nil {
            return SchemaMismatch(path: path, problem: .missing(name))
        }
        let properties = rules["properties"]?.object ?? [:]
        for name in members.keys.sorted() {
            guard let member = members[name] else { continue }
            if let rule = properties[name] ?? rules["additionalProperties"].flatMap({ $0.isObject ? $0 : nil }) {
                if let mismatch = check(member, rule, at: memberPath(path, name)) { return mismatch }
            } else if rules["additionalProperties"] == .bool(false) {
                return SchemaMismatch(path: path, problem: .notAllowed(name))
            }
        }
        return nil
    }

    private static func checkElements(
        _ elements: [JSONValue], _ rules: [String: JSONValue], at path: String
    ) -> SchemaMismatch? {
        guard let items = rules["items"] else { return nil }
        for (index, element) in elements.enumerated() {
            if let mismatch = check(element, items, at: "\(path)[\(index)]") { return mismatch }
        }
        return nil
    }

    /// `$.name`, or `$["a name"]` for a name that is not a plain word.
    private static func memberPath(_ path: String, _ name: String) -> String {
        let plain =
            !name.isEmpty && name.first?.isNumber == false
            && name.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
        return plain ? "\(path).\(name)" : "\(path)[\"\(name)\"]"
    }

    /// Whether `value` is of the JSON Schema type `type`.
    private static func matches(_ value: JSONValue, _ type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string), ("array", .array),
            ("object", .object):
            return true
        case ("integer", .number(let number)):
            return number == number.rounded()
        default:
            return false
        }
    }

    /// The JSON Schema type of `value` (`integer` for a whole number).
    private static func typeName(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .number(let number): number == number.rounded() ? "integer" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
