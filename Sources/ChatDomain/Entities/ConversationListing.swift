/// Stored conversations as a list or a search found them, and what it left out.
public struct ConversationListing: Sendable, Equatable {
    /// The conversations, most recently used first.
    public var summaries: [ConversationSummary]
    /// How many conversations that fit were left out because they have no answer (a request that
    /// failed before any text arrived); 0 when they were asked for too.
    public var unansweredLeftOut: Int
    /// How many more conversations fit than the limit let through.
    public var beyondLimit: Int

    /// Creates a listing.
    public init(summaries: [ConversationSummary], unansweredLeftOut: Int = 0, beyondLimit: Int = 0) {
        self.summaries = summaries
        self.unansweredLeftOut = unansweredLeftOut
        self.beyondLimit = beyondLimit
    }
}
