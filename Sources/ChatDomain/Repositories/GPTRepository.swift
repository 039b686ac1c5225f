/// A source of chat answers: the role the Data layer plays for the use case.
public protocol GPTRepository: Sendable {
    /// Sends `request` at once and returns its answer, to be read: whatever the caller does
    /// before it reads overlaps the network. Dropping the answer unread abandons the request.
    func streamChat(_ request: ChatRequest) -> any AnswerStream

    /// The models the server offers.
    func listModels() async -> Result<[ModelInfo], ChatError>
}
