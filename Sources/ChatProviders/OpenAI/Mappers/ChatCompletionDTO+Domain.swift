import ChatDomain

/// The events a chunk or a whole answer amounts to. Choice 0 is read where it lies in `choices`,
/// field by field: a call on a choice (or on its message) would copy the whole of it, some twenty
/// fields, for every chunk.
extension ChatCompletionDTO {
    /// Where choice 0 is in `choices`: the first whose index is 0 or not a number (`choices` may
    /// be empty).
    private static func firstChoice(in choices: UnsafeBufferPointer<ChoiceDTO>) -> UnsafePointer<ChoiceDTO>? {
        guard let base = choices.baseAddress else { return nil }
        for index in choices.indices where (choices[index].index ?? 0) == 0 { return base + index }
        return nil
    }

    /// Choice 0's finish reason.
    var finishReason: String? {
        choices?.withUnsafeBufferPointer { Self.firstChoice(in: $0)?.pointee.finish_reason }
    }

    /// Choice 0's tool-call fragments (a streamed chunk's) or calls (a whole answer's), if any.
    var toolCallFragments: [ToolCallDTO]? {
        choices?.withUnsafeBufferPointer {
            Self.firstChoice(in: $0).flatMap { $0.pointee.delta?.tool_calls ?? $0.pointee.message?.tool_calls }
        }
    }

    /// The events of a streamed chunk, in order: choice 0's delta and finish reason (unless
    /// `finish` is false: the caller sends it), then the usage.
    func forEachStreamEvent(_ emit: (ChatEvent) -> Void, finish: Bool = true) {
        choices?.withUnsafeBufferPointer { choices in
            guard let choice = Self.firstChoice(in: choices) else { return }
            MessageDTO.forEachContentEvent(
                reasoning: choice.pointee.delta?.reasoning_content ?? choice.pointee.delta?.reasoning,
                content: choice.pointee.delta?.content, refusal: choice.pointee.delta?.refusal, emit)
            if finish, let reason = choice.pointee.finish_reason, !reason.isEmpty { emit(.finished(reason: reason)) }
        }
        if var usage = usage?.toDomain() {
            usage.model = model
            emit(.usage(usage))
        }
    }

    /// The events a whole completion amounts to, as if it had been streamed in one piece: choice
    /// 0's message, its tool calls and finish reason ("stop" if none), then the usage.
    func forEachEvent(_ emit: (ChatEvent) -> Void) {
        choices?.withUnsafeBufferPointer { choices in
            guard let choice = Self.firstChoice(in: choices) else { return }
            MessageDTO.forEachContentEvent(
                reasoning: choice.pointee.message?.reasoning_content ?? choice.pointee.message?.reasoning,
                content: choice.pointee.message?.content, refusal: choice.pointee.message?.refusal, emit)
            if let calls = choice.pointee.message?.tool_calls, !calls.isEmpty {
                var assembly = ToolCallAssembly()
                for call in calls { assembly.add(call) }
                emit(.toolCalls(assembly.calls))
            }
            emit(.finished(reason: choice.pointee.finish_reason ?? "stop"))
        }
        if var usage = usage?.toDomain() {
            usage.model = model
            emit(.usage(usage))
        }
    }
}
