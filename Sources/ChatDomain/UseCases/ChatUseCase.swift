/// Sends a person's messages and turns the repository's results into conversation entries.
public protocol ChatUseCase: Sendable {
    /// Appends `message` (the person's, attachments and all), asks for an answer and appends it.
    ///
    /// Each event is handed to `onEvent` as it arrives. The turn holds the answer, or nil with
    /// the reason. A failure after some text keeps that text in the conversation as an
    /// interrupted answer; a failure before any text marks the user message failed so later
    /// requests leave it out.
    ///
    /// `onSent` is told the conversation's stored id (nil when it is not stored) once, when the
    /// request is on its way and the question stored, before any event.
    func send(
        _ message: ChatMessage, in conversation: inout Conversation, onSent: (String?) -> Void,
        onEvent: (ChatEvent) -> Void
    ) async -> Turn

    /// Asks again for an answer to the last user message, replacing the answer after it in the
    /// conversation (a recorder keeps the replaced one, as another branch). With no user message
    /// to retry, the turn has neither an answer nor an error.
    func retry(in conversation: inout Conversation, onEvent: (ChatEvent) -> Void) async -> Turn

    /// Drops the last exchange (the last user message and what follows), from the history too.
    /// Returns false when there is none.
    func undo(in conversation: inout Conversation) async -> Bool

    /// The models the server offers.
    func models() async -> Result<[ModelInfo], ChatError>

    /// Summarises the conversation so far (`/compact`), as `instructions` ask if given: later
    /// requests carry the summary in place of the messages it covers, which stay (in the
    /// history too). Returns how many messages the summary newly covers: 0 when there was no
    /// answer since the last one.
    func compact(_ conversation: inout Conversation, instructions: String?) async -> Result<Int, ChatError>
}

extension ChatUseCase {
    /// Sends `message`, with no interest in when it was sent.
    public func send(_ message: ChatMessage, in conversation: inout Conversation, onEvent: (ChatEvent) -> Void) async
        -> Turn
    {
        await send(message, in: &conversation, onSent: { _ in }, onEvent: onEvent)
    }

    /// Sends `text` as the person's message, with nothing attached.
    public func send(_ text: String, in conversation: inout Conversation, onEvent: (ChatEvent) -> Void) async -> Turn {
        await send(ChatMessage(role: .user, content: text), in: &conversation, onEvent: onEvent)
    }
}
