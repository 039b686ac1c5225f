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

    /// The usage of this request and `other`, both for one answer (a turn the server paused and
    /// its continuation): each count summed (one neither says stays unsaid), the model `other`
    /// names (else this one's), the cost summed when both are known.
    public func adding(_ other: TokenUsage) -> TokenUsage {
        func sum(_ one: Int?, _ two: Int?) -> Int? { one == nil && two == nil ? nil : (one ?? 0) + (two ?? 0) }
        var total = TokenUsage(
            promptTokens: promptTokens + other.promptTokens,
            completionTokens: completionTokens + other.completionTokens,
            totalTokens: totalTokens + other.totalTokens, cacheReadTokens: sum(cacheReadTokens, other.cacheReadTokens),
            cacheWriteTokens: sum(cacheWriteTokens, other.cacheWriteTokens),
            reasoningTokens: sum(reasoningTokens, other.reasoningTokens), model: other.model ?? model)
        total.webSearches = sum(webSearches, other.webSearches)
        if let cost = costUSD, let more = other.costUSD { total.costUSD = cost + more }
        return total
    }
}
