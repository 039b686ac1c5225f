/// Sends a person's messages and turns the repository's results into conversation entries.
public protocol ChatUseCase: AnyObject, Sendable {
    /// Why the last call returned nil; nil after a success.
    var lastError: ChatError? { get }

    /// How many older messages the last request left out to fit `maxContextTokens`.
    var lastOmittedCount: Int { get }

    /// Appends `text` as a user message, asks for an answer and appends it.
    ///
    /// Each event is handed to `onEvent` as it arrives. Returns the answer, or nil on failure,
    /// with the reason in `lastError`. A failure after some text keeps that text in the
    /// conversation as an interrupted answer; a failure before any text marks the user message
    /// failed so later requests leave it out.
    func send(
        _ text: String,
        in conversation: inout Conversation,
        onEvent: (ChatEvent) -> Void
    ) async -> ChatMessage?

    /// Asks again for an answer to the last user message, replacing the answer after it.
    /// Returns nil with `lastError` nil when there is no user message to retry.
    func retry(in conversation: inout Conversation, onEvent: (ChatEvent) -> Void) async -> ChatMessage?

    /// Drops the last exchange (the last user message and what follows), from the history too.
    /// Returns false when there is none.
    func undo(in conversation: inout Conversation) -> Bool

    /// The models the server offers, or nil with the reason in `lastError`.
    func models() async -> [ModelInfo]?
}
