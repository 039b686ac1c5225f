/// One dispatched Server-Sent Event as `SSEParser` holds it: the data still UTF-8 bytes, lent
/// only for the length of the `emit` call that receives it (copy what must outlive the call).
///
/// Why bytes: a streamed answer is one event per token, and the chunk reader works on bytes;
/// making a `String` of each event's data first was a copy, a UTF-8 check and often an
/// allocation per token, for text that is read once and dropped.
public struct RawSSEEvent {
    /// From the `event:` field; "message" when none (or an empty one) was given.
    public var type: String
    /// The `data:` lines joined with LF (the single trailing LF the spec adds is removed).
    public var data: UnsafeBufferPointer<UInt8>
    /// The last `id:` seen in this event (ids containing NUL are ignored); nil if none.
    var id: String?
    /// Value of a non-standard `error:` field line (legacy llama.cpp sends `error: {...}`); nil if none.
    public var legacyError: String?

    /// Lends `event`'s data as bytes to `body`.
    public static func with<Result>(_ event: SSEEvent, _ body: (RawSSEEvent) throws -> Result) rethrows -> Result {
        var data = event.data
        return try data.withUTF8 { bytes in
            try body(RawSSEEvent(type: event.type, data: bytes, id: event.id, legacyError: event.legacyError))
        }
    }
}
