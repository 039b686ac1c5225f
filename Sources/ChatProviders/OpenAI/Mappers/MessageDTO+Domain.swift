import ChatDomain

extension MessageDTO {
    /// A message's events: reasoning first (DeepSeek, llama.cpp and vLLM call it
    /// `reasoning_content`, Ollama and OpenRouter `reasoning`), then answer text; a refusal counts
    /// as answer text.
    static func forEachContentEvent(
        reasoning: String?, content: String?, refusal: String?, _ emit: (ChatEvent) -> Void
    ) {
        if let reasoning, !reasoning.isEmpty { emit(.reasoning(reasoning)) }
        if let content, !content.isEmpty { emit(.text(content)) }
        if let refusal, !refusal.isEmpty { emit(.text(refusal)) }
    }
}
