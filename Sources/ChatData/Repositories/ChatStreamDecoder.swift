import ChatDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Turns the events of a chat-completions event stream into `ChatEvent`s and knows when the
/// answer is complete: at `[DONE]`, or at a finish reason followed by a clean end of stream.
struct ChatStreamDecoder {
    /// `[DONE]` arrived; everything after it is ignored.
    private(set) var isDone = false
    /// The finish reason of choice 0, once one arrived.
    private(set) var finishReason: String?
    private let decoder = JSON.decoder()

    /// Whether the answer may be called complete if the stream ends now.
    var isComplete: Bool { isDone || finishReason != nil }

    /// Decodes one event; throws `ChatError.streamError` for an error the server sent and
    /// `ChatError.malformedResponse` for data that is not a chunk.
    mutating func decode(_ event: SSEEvent, _ emit: (ChatEvent) -> Void) throws(ChatError) {
        guard !isDone else { return }
        if let legacy = event.legacyError {
            throw .streamError(message: errorMessage(in: legacy, flat: true) ?? legacy.trimmingASCIIWhitespace())
        }
        let data = event.data.trimmingASCIIWhitespace()
        if event.type == "error" {
            throw .streamError(message: errorMessage(in: data, flat: true) ?? (data.isEmpty ? "no message" : data))
        }
        if data.isEmpty { return }
        if data == "[DONE]" {
            isDone = true
            return
        }
        guard data.hasPrefix("{") else {
            throw .malformedResponse("a stream event is not JSON: \(Self.excerpt(data))")
        }
        let chunk: ChatCompletionChunkDTO
        let mayHoldError: Bool
        // Nearly every chunk has the plain shape ChunkJSONReader reads (far faster); the rest
        // go to JSONDecoder.
        if let plain = ChunkJSONReader.chunk(data) {
            chunk = plain
            // The reader gives up on an `error` key, so only the flat `"object": "error"` is left.
            mayHoldError = plain.object == "error"
        } else {
            do {
                chunk = try JSON.decode(ChatCompletionChunkDTO.self, from: data, using: decoder)
            } catch {
                throw .malformedResponse("invalid JSON in the stream: \(Self.excerpt(data))")
            }
            // Error shapes are rare: only look for them when the text could hold one.
            mayHoldError = data.containsUTF8("\"error\"")
        }
        if mayHoldError, let message = errorMessage(in: data) {
            throw .streamError(message: message)
        }
        if chunk.finishReason == "error" {
            throw .streamError(message: "the server ended the answer with finish_reason \"error\"")
        }
        if let reason = chunk.finishReason, !reason.isEmpty { finishReason = reason }
        chunk.forEachEvent(emit)
    }

    /// The message of an error object in `text`, if it holds one. With `flat`, for text already
    /// known to be an error (`event: error`, an `error:` field), a bare `{"message": …}` counts too.
    private func errorMessage(in text: String, flat: Bool = false) -> String? {
        guard let dto = try? JSON.decode(APIErrorDTO.self, from: text, using: decoder) else { return nil }
        if let detail = dto.detail { return detail.message }
        return flat ? dto.message : nil
    }

    static func excerpt(_ text: String, limit: Int = 80) -> String {
        text.count <= limit ? text : String(text.prefix(limit)) + "…"
    }
}
