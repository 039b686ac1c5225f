import ChatDomain

/// An MCP elicitation request read as a `ServerQuestion`, and the person's answer written as an
/// `ElicitResult`: the same in both eras (a request of the server's in 2025-11-25, an input
/// request inside `input_required` in 2026-07-28).
enum MCPQuestion {
    /// The question `params` (an `elicitation/create` request's) asks; nil when it is neither a
    /// form nor a page.
    static func question(from params: JSONValue, server: String) -> ServerQuestion? {
        let message = params["message"]?.string ?? ""
        switch params["mode"]?.string ?? "form" {
        case "url":
            guard let url = params["url"]?.string, !url.isEmpty else { return nil }
            return ServerQuestion(server: server, message: message, kind: .url(url))
        case "form":
            let schema = params["requestedSchema"] ?? .object([:])
            let required = Set(schema["required"]?.array?.compactMap(\.string) ?? [])
            let properties = schema["properties"]?.object ?? [:]
            // The server's order is lost in a JSON object: the required fields first, then by name.
            let names = properties.keys.sorted {
                (required.contains($1) ? 1 : 0, $0) < (required.contains($0) ? 1 : 0, $1)
            }
            let fields = names.compactMap { name in
                properties[name].map { field(name, $0, isRequired: required.contains(name)) }
            }
            return ServerQuestion(server: server, message: message, kind: .form(fields))
        default:
            return nil
        }
    }

    /// One property of a form's schema as a field; a type chat does not know is asked as text.
    private static func field(_ name: String, _ schema: JSONValue, isRequired: Bool) -> ServerQuestionField {
        let kind: ServerQuestionField.Kind
        switch schema["type"]?.string {
        case "number", "integer":
            kind = .number(
                integer: schema["type"]?.string == "integer", minimum: schema["minimum"]?.number,
                maximum: schema["maximum"]?.number)
        case "boolean":
            kind = .boolean
        case "array":
            let items = schema["items"] ?? .object([:])
            kind = .choices(
                choices(items) ?? [], minItems: schema["minItems"]?.wholeNumber,
                maxItems: schema["maxItems"]?.wholeNumber)
        default:
            if let choices = choices(schema) {
                kind = .choice(choices)
            } else {
                kind = .text(
                    format: schema["format"]?.string, minLength: schema["minLength"]?.wholeNumber,
                    maxLength: schema["maxLength"]?.wholeNumber)
            }
        }
        return ServerQuestionField(
            name: name, title: schema["title"]?.string, description: schema["description"]?.string,
            isRequired: isRequired, kind: kind, defaultValue: schema["default"])
    }

    /// The choices `schema` offers: `enum` (titled by `enumNames` when given), or `oneOf` /
    /// `anyOf` of `{const, title}`; nil when it offers none.
    private static func choices(_ schema: JSONValue) -> [ServerQuestionChoice]? {
        if let values = schema["enum"]?.array?.compactMap(\.string), !values.isEmpty {
            let titles = schema["enumNames"]?.array?.compactMap(\.string) ?? []
            return values.enumerated().map { index, value in
                ServerQuestionChoice(value: value, title: titles.count == values.count ? titles[index] : nil)
            }
        }
        let alternatives = schema["oneOf"]?.array ?? schema["anyOf"]?.array ?? []
        let choices = alternatives.compactMap { item in
            item["const"]?.string.map { ServerQuestionChoice(value: $0, title: item["title"]?.string) }
        }
        return choices.isEmpty ? nil : choices
    }

    /// `answer` as an `ElicitResult`.
    static func result(_ answer: ServerAnswer) -> JSONValue {
        switch answer {
        case .accept(let content):
            var result: [String: JSONValue] = ["action": .string("accept")]
            if !content.isEmpty { result["content"] = .object(content) }
            return .object(result)
        case .decline:
            return .object(["action": .string("decline")])
        case .cancel:
            return .object(["action": .string("cancel")])
        }
    }
}
