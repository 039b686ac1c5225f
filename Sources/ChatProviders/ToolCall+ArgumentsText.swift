import ChatDomain
import ChatJSON

extension ToolCall {
    /// A call whose arguments came as JSON text, in pieces put together (OpenAI's `arguments`,
    /// Anthropic's `input_json_delta`s): read as JSON, none at all as `{}`; text that is not JSON
    /// is kept as a string value, for the loop to refuse.
    init(id: String, name: String, argumentsText text: String) {
        let trimmed = text.trimmingASCIIWhitespace()
        let arguments: JSONValue
        if trimmed.isEmpty {
            arguments = .object([:])
        } else if let value = try? JSONParser.parse(trimmed) {
            arguments = value
        } else {
            arguments = .string(text)
        }
        self.init(id: id, name: name, arguments: arguments)
    }
}
