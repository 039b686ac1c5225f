import ChatDomain

/// Turns the events of a chat-completions event stream into `ChatEvent`s and knows when the
/// answer is complete: at `[DONE]`, or at a finish reason followed by a clean end of stream.
///
/// A chunk is read for what chat uses of it and nothing else (see `ChatCompletionChunkDTO`): a
/// field chat does not use never fails an answer, whatever its type or value. Nearly every chunk
/// is read straight from its bytes by `ChunkShape` or `ChunkJSONReader`; the rest are parsed in
/// full by `JSONParser` (`readInFull`), by the same rules.
struct ChatStreamDecoder: StreamEventDecoder {
    /// `[DONE]` arrived; everything after it is ignored.
    private(set) var isDone = false
    /// The finish reason of choice 0, once one arrived.
    private(set) var finishReason: String?
    /// The shape of the last chunk read in full.
    private var shape: ChunkShape?

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
            return
        }
        // Nearly every chunk has the plain shape ChunkJSONReader reads from the bytes (far
        // faster); the rest, and errors, are read in full. The reader gives up on an `error`
        // key, so only the flat `"object": "error"` comes back from it as an error.
        if data.first == UInt8(ascii: "{"), let plain = readPlain(data), !plain.isErrorObject {
            try take(finishReason: plain.finishReason)
            plain.forEachEvent(emit)
            return
        }
        switch try Self.readInFull(data) {
        case .error(let error):
            throw .streamError(message: error.message)
        case .chunk(let chunk):
            try take(finishReason: chunk.finishReason)
            chunk.forEachEvent(emit)
        }
    }

    /// What an event's data says, read in full.
    enum FullReading: Equatable {
        /// An error object (`{"error": …}`, or flat with `"object": "error"`).
        case error(APIErrorDTO)
        case chunk(ChatCompletionChunkDTO)
    }

    /// Reads `data` in full with `JSONParser`; throws `ChatError.malformedResponse` when it is not
    /// JSON or not a JSON object.
    static func readInFull(_ data: UnsafeBufferPointer<UInt8>) throws(ChatError) -> FullReading {
        let json: JSONValue
        do {
            json = try JSONParser.parse(data)
        } catch {
            throw .malformedResponse("invalid JSON in the stream: \(String(decoding: data, as: UTF8.self).excerpt())")
        }
        guard json.isObject else {
            throw .malformedResponse(
                "a stream event is not a JSON object: \(String(decoding: data, as: UTF8.self).excerpt())")
        }
        if let error = APIErrorDTO(json: json) { return .error(error) }
        return .chunk(ChatCompletionChunkDTO(json: json))
    }

    /// The chunk in `data` if it has the everyday shape: compared against the last chunk's
    /// shape first (nearly every chunk of an answer has it), else read in full.
    private mutating func readPlain(_ data: UnsafeBufferPointer<UInt8>) -> PlainChunk? {
        if let shape, let chunk = shape.read(data) { return chunk }
        guard let (chunk, shape) = ChunkJSONReader.read(data) else { return nil }
        self.shape = shape
        return chunk
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
        (try? JSONParser.parse(text)).flatMap { APIErrorDTO(json: $0, flat: true) }?.message
    }
}
