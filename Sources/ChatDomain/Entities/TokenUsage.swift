/// Token counts the server reports for one request.
public struct TokenUsage: Sendable, Equatable {
    /// Tokens in the request (the conversation sent), those read from or written to a prompt
    /// cache included.
    public var promptTokens: Int
    /// Tokens in the answer.
    public var completionTokens: Int
    /// The server's total, usually the sum of both.
    public var totalTokens: Int
    /// Of the prompt tokens, those read from the server's prompt cache (OpenAI's `cached_tokens`),
    /// when it says.
    public var cacheReadTokens: Int?
    /// Of the prompt tokens, those written to the server's prompt cache, when it says.
    public var cacheWriteTokens: Int?
    /// Of the answer's tokens, those the model spent reasoning, when the server says.
    public var reasoningTokens: Int?
    /// Web searches the server ran for the answer, when it says.
    public var webSearches: Int?
    /// The model the server says answered (often a dated snapshot of the one asked for).
    public var model: String?
    /// What the request cost, in US dollars, by chat's prices (`PriceBook`); nil when no price
    /// is known for the model.
    public var costUSD: Double?

    /// Creates a usage record; the total defaults to the sum.
    public init(
        promptTokens: Int, completionTokens: Int, totalTokens: Int? = nil, cacheReadTokens: Int? = nil,
        cacheWriteTokens: Int? = nil, reasoningTokens: Int? = nil, model: String? = nil
    ) {
        self.model = model
        self.reasoningTokens = reasoningTokens
        self.promptTokens = promptTokens
        self.completionTokens = completionTokens
        self.totalTokens = totalTokens ?? promptTokens + completionTokens
        self.cacheReadTokens = cacheReadTokens
        self.cacheWriteTokens = cacheWriteTokens
    }
}
