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

    /// The executor the task reading `streamChat`'s events should prefer while it reads them,
    /// if the repository has one (one that can run the reader where the answer arrives); nil by
    /// default.
    var readingExecutor: (any TaskExecutor)? { get }
}

extension GPTRepository {
    public var readingExecutor: (any TaskExecutor)? { nil }
}
