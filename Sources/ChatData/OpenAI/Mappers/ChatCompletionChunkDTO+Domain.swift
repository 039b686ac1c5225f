import ChatDomain

extension ChatCompletionChunkDTO {
    /// What chat uses of this chunk, as `ChunkJSONReader` reads it from plain chunks: choice 0
    /// (the first whose index is 0 or not a number; `choices` may be empty) and the error flag.
    var plain: PlainChunk {
        let choice = choices?.first { ($0.index ?? 0) == 0 }
        return PlainChunk(
            isErrorObject: object == "error", delta: choice?.delta ?? .init(), finishReason: choice?.finish_reason)
    }

    /// The events this chunk carries, in order: choice 0's, then the usage.
    func forEachEvent(_ emit: (ChatEvent) -> Void) {
        plain.forEachEvent(emit)
        if let usage = usage?.toDomain() { emit(.usage(usage)) }
    }

    /// The first choice's finish reason, if any.
    var finishReason: String? { plain.finishReason }
}
