/// One dispatched Server-Sent Event with its data as text: an owned copy of a `RawSSEEvent`.
public struct SSEEvent: Equatable, Sendable {
    /// From the `event:` field; "message" when none (or an empty one) was given.
    var type: String
    /// The `data:` lines joined with "\n" (the single trailing "\n" the spec adds is removed).
    var data: String
    /// The last `id:` seen in this event (ids containing NUL are ignored); nil if none.
    var id: String?
    /// Value of a non-standard `error:` field line (legacy llama.cpp sends `error: {...}`); nil if none.
    var legacyError: String?

    init(type: String = "message", data: String = "", id: String? = nil, legacyError: String? = nil) {
        self.type = type
        self.data = data
        self.id = id
        self.legacyError = legacyError
    }

    /// A copy of `raw`, data decoded as UTF-8 (invalid bytes become U+FFFD).
    init(_ raw: RawSSEEvent) {
        self.init(
            type: raw.type, data: String(decoding: raw.data, as: UTF8.self), id: raw.id, legacyError: raw.legacyError)
    }
}
