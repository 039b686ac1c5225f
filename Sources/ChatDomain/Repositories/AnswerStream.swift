/// An answer on its way (`GPTRepository.streamChat`): the request has been sent.
public protocol AnswerStream {
    /// Reads the answer, handing each event to `onEvent` in order of arrival, in the calling
    /// task; returns once the answer is complete. Call it once. `onEvent` runs inside the
    /// reading: what it waits for, the reading waits for.
    ///
    /// Throws a `ChatError` when the request fails or the answer is cut short (events already
    /// handed on stay valid); `.cancelled` when the calling task is cancelled, which aborts the
    /// transfer.
    func read(_ onEvent: (ChatEvent) -> Void) async throws(ChatError)
}
