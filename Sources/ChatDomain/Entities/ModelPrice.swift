/// What a model costs, in US dollars: per million tokens of prompt (`input`), of answer
/// (`output`, reasoning included), of prompt read from the server's cache and written to it, and
/// per thousand web searches. A cache price that is not known is the input price. Some models
/// cost more for a whole request whose prompt passes a size (`longPrompt`).
public struct ModelPrice: Sendable, Equatable {
    /// The rates of a request whose prompt (cache reads and writes included) has more than
    /// `tokens` tokens: every token of it, the answer's too.
    public struct LongPrompt: Sendable, Equatable {
        public var tokens: Int
        public var input: Double
        public var output: Double
        public var cacheRead: Double?
        public var cacheWrite: Double?

        public init(
            above tokens: Int, input: Double, output: Double, cacheRead: Double? = nil, cacheWrite: Double? = nil
        ) {
            self.tokens = tokens
            self.input = input
            self.output = output
            self.cacheRead = cacheRead
            self.cacheWrite = cacheWrite
        }
    }

    public var input: Double
    public var output: Double
    public var cacheRead: Double?
    public var cacheWrite: Double?
    public var webSearch: Double?
    public var longPrompt: LongPrompt?

    public init(
        input: Double, output: Double, cacheRead: Double? = nil, cacheWrite: Double? = nil, webSearch: Double? = nil,
        longPrompt: LongPrompt? = nil
    ) {
        self.input = input
        self.output = output
        self.cacheRead = cacheRead
        self.cacheWrite = cacheWrite
        self.webSearch = webSearch
        self.longPrompt = longPrompt
    }

    /// The cost of one request, from the usage the server reported: the prompt tokens not read
    /// from or written to the cache at the input price, those read and written at the cache's
    /// prices, the answer's at the output price (`TokenUsage` counts cache reads and writes in
    /// its prompt tokens whichever provider reported them).
    public func cost(of usage: TokenUsage) -> Double {
        if let long = longPrompt, usage.promptTokens > long.tokens {
            let rates = ModelPrice(
                input: long.input, output: long.output, cacheRead: long.cacheRead, cacheWrite: long.cacheWrite,
                webSearch: webSearch)
            return rates.cost(of: usage)
        }
        let read = usage.cacheReadTokens ?? 0
        let written = usage.cacheWriteTokens ?? 0
        let uncached = max(0, usage.promptTokens - read - written)
        let tokens =
            Double(uncached) * input + Double(read) * (cacheRead ?? input) + Double(written) * (cacheWrite ?? input)
            + Double(usage.completionTokens) * output
        let searches = Double(usage.webSearches ?? 0) * (webSearch ?? 0) / 1_000
        return tokens / 1_000_000 + searches
    }
}
