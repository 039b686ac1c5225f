import ChatDomain
import ChatHTTP
import ChatJSON

/// Turns the events of a chat-completions event stream into `ChatEvent`s and knows when the
/// answer is complete: at `[DONE]`, or at a finish reason followed by a clean end of stream.
///
/// Each event's data is read once, straight from its bytes, as a `ChatCompletionDTO` (an error
/// sent in a chunk's place included): for what chat uses of it and nothing else, so a field chat
/// does not use never fails an answer, whatever its type or value. A chunk shaped like the last
/// one read in full (nearly every chunk of an answer) is read through that one's `JSONShape`.
struct ChatStreamDecoder: StreamEventDecoder {
    /// `[DONE]` arrived; everything after it is ignored.
    private(set) var isDone = false
    /// The finish reason of choice 0, once one arrived.
    private(set) var finishReason: String?
    /// The shape of the last chunk read in full.
    private var shape: JSONShape<ChatCompletionDTO>?
    /// The tool calls of the answer so far, from their fragments; sent whole as the answer ends
    /// (at its finish reason, or at `[DONE]` if none came).
    private var toolCalls = ToolCallAssembly()
    private var toolCallsSent = false

    /// Whether the answer may be called complete if the stream ends now.
    var isComplete: Bool { isDone || finishReason != nil }

    /// Decodes one event; throws `ChatError.streamError` for an error the server sent and
    /// `ChatError.malformedResponse` for data that is not a chunk.
    mutating func decode(_ event: RawSSEEvent, _ emit: (ChatEvent) -> Void) throws(ChatError) {
        guard !isDone else { return }
        if let legacy = event.legacyError {
            throw .streamError(message: Self.errorMessage(in: legacy) ?? legacy.trimmingASCIIWhitespace())
        }
        let data = Self.trimmed(event.data)
        if event.type == "error" {
            let text = String(decoding: data, as: UTF8.self)
            throw .streamError(message: Self.errorMessage(in: text) ?? (text.isEmpty ? "no message" : text))
        }
        if data.isEmpty { return }
        if data.hasBytes(of: "[DONE]") {
            isDone = true
            sendToolCalls(emit)
            return
        }
        // Only an answer with tool calls pays for them: `fragments` is nil in every other chunk.
        let assembling = !toolCalls.isEmpty
        let (error, reason, fragments) = try Self.withChunk(in: data, shape: &shape) {
            chunk -> (String?, String?, [ToolCallDTO]?) in
            if let error = chunk.error.summary() { return (error.message, nil, nil) }
            let reason = chunk.finishReason
            let fragments = chunk.toolCallFragments
            if reason != "error" { chunk.forEachStreamEvent(emit, finish: !assembling && fragments == nil) }
            return (nil, reason, fragments)
        }
        if let error { throw .streamError(message: error) }
        if assembling || fragments != nil {
            for fragment in fragments ?? [] { toolCalls.add(fragment) }
            if let reason, !reason.isEmpty, reason != "error" {
                sendToolCalls(emit)
                emit(.finished(reason: reason))
            }
        }
        try take(finishReason: reason)
    }

    /// Sends the assembled tool calls, once, if there are any.
    private mutating func sendToolCalls(_ emit: (ChatEvent) -> Void) {
        guard !toolCallsSent, !toolCalls.isEmpty else { return }
        toolCallsSent = true
        emit(.toolCalls(toolCalls.calls))
    }

    /// Lends `body` the chunk (or error) an event's `data` holds (in place, as `JSONShape` lends
    /// it), read through `shape` if it has that shape, else in full (and `shape` becomes its
    /// shape); throws
    /// `ChatError.malformedResponse` when it is not JSON or not a JSON object.
    static func withChunk<Result>(
        in data: UnsafeBufferPointer<UInt8>, shape: inout JSONShape<ChatCompletionDTO>?,
        _ body: (inout ChatCompletionDTO) -> Result
    ) throws(ChatError) -> Result {
        if let result = shape?.read(data, body) { return result }
        let chunk: ChatCompletionDTO?
        do {
            let read = try JSONShape<ChatCompletionDTO>.reading(data)
            chunk = read.0
            if let next = read.1 { shape = next }
        } catch {
            throw .malformedResponse("invalid JSON in the stream: \(String(decoding: data, as: UTF8.self).excerpt())")
        }
        guard var chunk else {
            throw .malformedResponse(
                "a stream event is not a JSON object: \(String(decoding: data, as: UTF8.self).excerpt())")
        }
        return body(&chunk)
    }

    /// Decodes one event held as text (tests, and callers with an owned event).
    mutating func decode(_ event: SSEEvent, _ emit: (ChatEvent) -> Void) throws(ChatError) {
        let result: Result<Void, ChatError> = RawSSEEvent.with(event) { raw in
            do throws(ChatError) {
                try decode(raw, emit)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// Notes choice 0's finish reason; `"error"` is a failure the server reports this way.
    private mutating func take(finishReason reason: String?) throws(ChatError) {
        if reason == "error" {
            throw .streamError(message: "the server ended the answer with finish_reason \"error\"")
        }
        if let reason, !reason.isEmpty { finishReason = reason }
    }

    /// `bytes` without leading and trailing spaces, tabs, CR and LF.
    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end && isSpace(bytes[start]) { start += 1 }
        while end > start && isSpace(bytes[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// The message of the error object in `text`, text already known to be an error
    /// (`event: error`, an `error:` field), where a bare `{"message": …}` counts too.
    private static func errorMessage(in text: String) -> String? {
        (try? JSONReader.read(APIErrorDTO.self, from: text))?.summary(flat: true)?.message
    }
}
