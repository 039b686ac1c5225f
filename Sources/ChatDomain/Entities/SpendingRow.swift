/// What one model's answers of one day came to (`chat --stats`), from the history.
public struct SpendingRow: Sendable, Equatable {
    public var model: String
    public var provider: String
    /// The day, UTC, as `YYYY-MM-DD`.
    public var day: String
    public var answers: Int
    public var inputTokens: Int
    public var outputTokens: Int
    /// What the answers whose cost is known cost, in US dollars; nil when none is known.
    public var costUSD: Double?
    /// How many of the answers have no known cost.
    public var unknownCost: Int

    public init(
        model: String, provider: String, day: String, answers: Int, inputTokens: Int, outputTokens: Int,
        costUSD: Double?, unknownCost: Int
    ) {
        self.model = model
        self.provider = provider
        self.day = day
        self.answers = answers
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
        self.costUSD = costUSD
        self.unknownCost = unknownCost
    }
}
