import ChatDomain

/// Turns a provider's Server-Sent Events into `ChatEvent`s, one event at a time, and knows when
/// the answer is complete.
package protocol StreamEventDecoder {
    /// The stream said it is over: the engine stops reading.
    var isDone: Bool { get }
    /// Whether the answer may be called complete if the stream ends now.
    var isComplete: Bool { get }
    /// Decodes one event, whose data is lent for the call only; throws `ChatError.streamError`
    /// for an error the server sent and `ChatError.malformedResponse` for data it cannot read.
    mutating func decode(_ event: RawSSEEvent, _ emit: (ChatEvent) -> Void) throws(ChatError)
}
