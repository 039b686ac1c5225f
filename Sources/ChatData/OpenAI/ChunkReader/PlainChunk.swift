import ChatDomain

/// What chat uses of a `chat.completion.chunk` in its everyday shape, as `ChunkJSONReader`
/// reads it: choice 0's delta and finish reason, and whether it is a flat error object. The
/// other fields (`id`, `model`, …) are checked but not kept, so reading a chunk makes no
/// `String` beyond the delta's texts.
struct PlainChunk: Equatable {
    /// `"object": "error"`: a flat error object, whose message `APIErrorDTO` reads.
    var isErrorObject = false
    /// The delta of choice 0 (the first choice whose index is 0 or missing); empty if none.
    var delta = ChatCompletionChunkDTO.DeltaDTO()
    /// Choice 0's finish reason.
    var finishReason: String?

    /// The chunk whose string values in `bytes` are `holes`; nil if its `object` holds an escape
    /// (rare enough to leave to `JSONParser`, which unescapes it before comparing).
    init?(_ bytes: UnsafeBufferPointer<UInt8>, holes: [ChunkShape.Hole]) {
        for hole in holes {
            guard take(hole, in: bytes) else { return nil }
        }
    }

    /// Sets the field that `hole`, a string value in `bytes`, is; false for an escaped `object`.
    mutating func take(_ hole: ChunkShape.Hole, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard hole.field != .skip else { return true }
        let raw = UnsafeBufferPointer(rebasing: bytes[hole.range])
        if hole.field == .object {
            guard !hole.escaped else { return false }
            isErrorObject = raw.hasBytes(of: "error")
            return true
        }
        let text = hole.escaped ? JSONStringScanner.unescape(raw) : String(decoding: raw, as: UTF8.self)
        switch hole.field {
        case .role: delta.role = text
        case .content: delta.content = text
        case .refusal: delta.refusal = text
        case .reasoningContent: delta.reasoning_content = text
        case .reasoning: delta.reasoning = text
        case .finishReason: finishReason = text
        case .skip, .object: break
        }
        return true
    }

    init(isErrorObject: Bool = false, delta: ChatCompletionChunkDTO.DeltaDTO = .init(), finishReason: String? = nil) {
        self.isErrorObject = isErrorObject
        self.delta = delta
        self.finishReason = finishReason
    }

    /// The events this chunk carries, in order, as `ChatCompletionChunkDTO.forEachEvent` gives them
    /// (a plain chunk has no usage).
    func forEachEvent(_ emit: (ChatEvent) -> Void) {
        delta.forEachContentEvent(emit)
        if let reason = finishReason, !reason.isEmpty { emit(.finished(reason: reason)) }
    }
}
