/// Whether a server refused a request for being longer than the model's context window, by
/// what the servers say: OpenAI's `context_length_exceeded` ("maximum context length"),
/// Anthropic's "prompt is too long", llama.cpp's `exceed_context_size_error` ("exceeds the
/// available context size"), vLLM's and Ollama's wordings.
public enum ContextOverflow {
    /// Whether `error` is such a refusal.
    public static func refused(_ error: ChatError) -> Bool {
        let message: String
        switch error {
        case .badRequest(_, let text), .streamError(let text), .server(_, let text): message = text
        default: return false
        }
        let lowered = message.lowercased()
        return phrases.contains { lowered.contains($0) }
    }

    static let phrases = [
        "context length", "context_length", "context window", "context size", "exceed_context",
        "prompt is too long", "too many tokens", "maximum context", "input is too long", "reduce the length",
    ]
}
