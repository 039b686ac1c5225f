import ChatDomain

/// The text fields of a streamed delta (and of a whole message, which has the same shape).
protocol MessageContentDTO {
    var content: String? { get }
    var refusal: String? { get }
    var reasoning_content: String? { get }
    var reasoning: String? { get }
}

extension MessageContentDTO {
    /// Reasoning first (DeepSeek, llama.cpp and vLLM call it `reasoning_content`, Ollama and
    /// OpenRouter `reasoning`), then answer text; a refusal counts as answer text.
    func forEachContentEvent(_ emit: (ChatEvent) -> Void) {
        if let reasoning = reasoning_content ?? reasoning, !reasoning.isEmpty { emit(.reasoning(reasoning)) }
        if let content, !content.isEmpty { emit(.text(content)) }
        if let refusal, !refusal.isEmpty { emit(.text(refusal)) }
    }
}

extension ChatCompletionChunkDTO.DeltaDTO: MessageContentDTO {}
