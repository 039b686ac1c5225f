import ChatDomain
import ChatJSON
import ChatSystem

/// Reads what `--schema` (and the REPL's `/schema`) is given into a `ResponseSchema`: inline JSON
/// (it starts with `{`), the path of a JSON Schema file (a file that is there, or a name ending in
/// `.json`), or else the concise form (`ConciseSchema`). With `multi`, the answer is a list of
/// such objects, as `{"items": […]}`.
public enum ResponseSchemaReader {
    /// The schema `text` gives.
    public static func schema(_ text: String, multi: Bool = false) throws(SchemaProblem) -> ResponseSchema {
        let trimmed = text.drop(while: \.isWhitespace)
        if trimmed.hasPrefix("{") { return ResponseSchema(schema: wrapped(try parse(text, .inline), multi)) }
        if FileSystem.exists(text) || text.hasSuffix(".json") {
            let bytes: [UInt8]
            do throws(FileSystem.ReadError) {
                bytes = try FileSystem.read(text)
            } catch {
                switch error {
                case .missing: throw .unreadable(path: text, reason: "no such file")
                case .unreadable(let reason): throw .unreadable(path: text, reason: reason)
                }
            }
            let json = String(decoding: bytes, as: UTF8.self)
            return ResponseSchema(schema: wrapped(try parse(json, .file(text)), multi))
        }
        return ResponseSchema(schema: wrapped(try ConciseSchema.schema(text), multi))
    }

    /// The object `text` holds.
    private static func parse(_ text: String, _ source: SchemaProblem.Source) throws(SchemaProblem) -> JSONValue {
        let value: JSONValue
        do throws(JSONSyntaxError) {
            value = try JSONParser.parse(text)
        } catch {
            throw .notJSON(source, reason: error.description)
        }
        guard value.isObject else { throw .notAnObject(source) }
        return value
    }

    /// `schema`, or with `multi` the schema of `{"items": [schema, …]}`.
    private static func wrapped(_ schema: JSONValue, _ multi: Bool) -> JSONValue {
        guard multi else { return schema }
        return ConciseSchema.strictObject(
            ["items": .object(["type": .string("array"), "items": schema])], required: [.string("items")])
    }

    /// The first place the answer `text` does not match `schema`: not JSON at all, or a value
    /// that `SchemaValidator` finds wrong; nil when it matches.
    public static func firstMismatch(inAnswer text: String, against schema: ResponseSchema) -> SchemaMismatch? {
        let value: JSONValue
        do throws(JSONSyntaxError) {
            value = try JSONParser.parse(text)
        } catch {
            return SchemaMismatch(path: "$", problem: .notJSON(error.description))
        }
        return SchemaValidator.firstMismatch(in: value, against: schema.schema)
    }
}
