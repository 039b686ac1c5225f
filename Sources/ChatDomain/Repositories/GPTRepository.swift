/// A source of chat answers: the role the Data layer plays for the use case.
public protocol GPTRepository: Sendable {
    /// Streams the answer to `request` as events in order of arrival.
    ///
    /// The stream finishes normally once the answer is complete. It throws a `ChatError` when
    /// the request fails or the answer is cut short; events already yielded stay valid.
    /// Cancelling the consuming task aborts the transfer.
    func streamChat(_ request: ChatRequest) -> AsyncThrowingStream<ChatEvent, any Error>

    /// The models the server offers.
    func listModels() async -> Result<[ModelInfo], ChatError>
}
