import ChatDomain

extension ErrorWording {
    /// Why a schema given with `origin` (`--schema`, `/schema`) gives no schema, naming what to
    /// write instead.
    public static func line(for problem: SchemaProblem, from origin: String = "--schema") -> String {
        let form = "(the concise form is fields like 'name, age int, bio: a short biography')"
        switch problem {
        case .noFields:
            return "\(origin) holds no field \(form)"
        case .badField(let text):
            return
                "\(origin) field \"\(ServerText.line(text, limit: 60))\" is not a name, a type and a description \(form)"
        case .badName(let name):
            return
                "\(origin) field name \"\(ServerText.line(name, limit: 60))\" must be letters, digits, _ or -, starting with a letter or _"
        case .unknownType(let field, let type):
            return
                "\(origin) field \(field) has type \"\(ServerText.line(type, limit: 30))\"; the types are str, int, float and bool"
        case .repeatedName(let name):
            return "\(origin) names the field \(name) twice"
        case .unreadable(let path, let reason):
            return "cannot read the schema file \(path): \(reason)"
        case .notJSON(let source, let reason):
            return "\(describe(source, origin)) is not JSON: \(reason)"
        case .notAnObject(let source):
            return
                "\(describe(source, origin)) is not a JSON object; a JSON Schema is one (\"{\\\"type\\\": \\\"object\\\", …}\")"
        }
    }

    /// One line naming where and how the answer (or `subject`) does not match its schema (or
    /// `schema`).
    public static func line(
        for mismatch: SchemaMismatch, subject: String = "the answer", schema: String = "the schema"
    ) -> String {
        let at = mismatch.path == "$" ? "" : " at \(mismatch.path)"
        let does = "\(subject) does not match \(schema)"
        switch mismatch.problem {
        case .notJSON(let reason):
            return "\(subject) is not JSON (\(reason)); the server may have ignored the schema"
        case .type(let expected, let found):
            return "\(does)\(at): expected \(either(expected)), got \(found)"
        case .missing(let name):
            return "\(does)\(at): \"\(ServerText.line(name, limit: 60))\" is missing"
        case .notAllowed(let name):
            return "\(does)\(at): \"\(ServerText.line(name, limit: 60))\" is not in it"
        case .notOneOf(let allowed, let found):
            return
                "\(does)\(at): \(plain(found)) is not "
                + (allowed.count == 1 ? plain(allowed[0]) : "one of " + allowed.map(plain).joined(separator: ", "))
        case .noAlternative:
            return "\(does)\(at): it matches none of the alternatives"
        }
    }

    private static func describe(_ source: SchemaProblem.Source, _ origin: String) -> String {
        switch source {
        case .inline: "the inline \(origin)"
        case .file(let path): "the schema file \(path)"
        }
    }

    /// A value from a schema or an answer, short: a string quoted, a number or word as it is.
    private static func plain(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let truth): truth ? "true" : "false"
        case .number(let number): ErrorWording.plain(number)
        case .string(let text): "\"" + ServerText.line(text, limit: 60) + "\""
        case .array: "an array"
        case .object: "an object"
        }
    }
}
