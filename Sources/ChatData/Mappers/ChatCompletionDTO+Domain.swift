import ChatDomain

extension ChatCompletionDTO {
    /// The events a whole completion amounts to, as if it had been streamed in one piece.
    func forEachEvent(_ emit: (ChatEvent) -> Void) {
        if let choice = choices?.first(where: { ($0.index ?? 0) == 0 }) {
            if let message = choice.message {
                if let reasoning = message.reasoning_content ?? message.reasoning, !reasoning.isEmpty {
                    emit(.reasoning(reasoning))
                }
                if let content = message.content, !content.isEmpty { emit(.text(content)) }
                if let refusal = message.refusal, !refusal.isEmpty { emit(.text(refusal)) }
            }
            emit(.finished(reason: choice.finish_reason ?? "stop"))
        }
        if let usage = usage?.toDomain() { emit(.usage(usage)) }
    }
}
