/// A source of chat answers: the role the Data layer plays for the use case.
public protocol GPTRepository: Sendable {
    /// Sends `request` at once and returns its answer, to be read: whatever the caller does
    /// before it reads overlaps the network. Dropping the answer unread abandons the request.
    func streamChat(_ request: ChatRequest) -> any AnswerStream

    /// The models the server offers.
    func listModels() async -> Result<[ModelInfo], ChatError>

    /// The context window of `model` in tokens, as the server says it; nil when it says nothing.
    func contextWindow(of model: String) async -> Int?
}

extension GPTRepository {
    /// The context window of `model` in tokens, as the server says it (llama.cpp and vLLM do);
    /// nil when it says nothing.
    public func contextWindow(of model: String) async -> Int? { nil }
}
