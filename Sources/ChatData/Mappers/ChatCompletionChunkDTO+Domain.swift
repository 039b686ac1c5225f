import ChatDomain

extension ChatCompletionChunkDTO {
    /// The events this chunk carries, in order. Only choice 0 counts; `choices` may be empty.
    func forEachEvent(_ emit: (ChatEvent) -> Void) {
        if let choice = choices?.first(where: { ($0.index ?? 0) == 0 }) {
            choice.delta?.forEachContentEvent(emit)
            if let reason = choice.finish_reason, !reason.isEmpty { emit(.finished(reason: reason)) }
        }
        if let usage = usage?.toDomain() { emit(.usage(usage)) }
    }

    /// The first choice's finish reason, if any.
    var finishReason: String? {
        choices?.first(where: { ($0.index ?? 0) == 0 })?.finish_reason
    }
}
