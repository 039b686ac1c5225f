/// Token counts the server reports for one request.
public struct TokenUsage: Sendable, Equatable, Codable {
    /// Tokens in the request (the conversation sent).
    public var promptTokens: Int
    /// Tokens in the answer.
    public var completionTokens: Int
    /// The server's total, usually the sum of both.
    public var totalTokens: Int
    /// Of the prompt's tokens, how many the server had cached; nil when it did not say.
    public var cachedTokens: Int?

    /// Creates a usage record; the total defaults to the sum.
    public init(promptTokens: Int, completionTokens: Int, totalTokens: Int? = nil, cachedTokens: Int? = nil) {
        self.promptTokens = promptTokens
        self.completionTokens = completionTokens
        self.totalTokens = totalTokens ?? promptTokens + completionTokens
        self.cachedTokens = cachedTokens
    }
}
