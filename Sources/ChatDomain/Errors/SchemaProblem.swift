/// Why a `--schema` value (a JSON Schema file, inline JSON, or the concise form) gives no schema,
/// as facts: Presentation words them.
public enum SchemaProblem: Error, Sendable, Equatable {
    /// Where a schema in JSON came from.
    public enum Source: Sendable, Equatable {
        case inline
        case file(String)
    }

    /// The concise form holds no field.
    case noFields
    /// A field of the concise form (`text`) is not `name`, `name type`, or either followed by
    /// `: description`.
    case badField(String)
    /// A field's name is not letters, digits, `_` and `-`, starting with a letter or `_`.
    case badName(String)
    /// A field's type is none of the concise form's.
    case unknownType(field: String, type: String)
    /// Two fields have the same name.
    case repeatedName(String)
    /// The schema file could not be read: the system's reason.
    case unreadable(path: String, reason: String)
    /// The JSON does not parse: where and why.
    case notJSON(Source, reason: String)
    /// The JSON is not an object (a schema is one).
    case notAnObject(Source)
}
