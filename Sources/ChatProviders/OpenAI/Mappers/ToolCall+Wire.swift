import ChatDomain
import ChatJSON

extension ToolCall {
    /// The arguments as the wire sends them back: JSON text, or the text the model sent if it
    /// was not JSON (kept as a string value).
    var argumentsText: String {
        if case .string(let raw) = arguments { return raw }
        return arguments.jsonText ?? "{}"
    }
}
