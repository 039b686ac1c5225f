/// A conversation as the history lists it.
public struct ConversationSummary: Sendable, Equatable {
    /// Its short id (8 characters; any unique prefix finds it).
    public var id: String
    /// The first words of its first message, or what `/title` set.
    public var title: String
    /// The model of its last turn.
    public var model: String
    /// Seconds since 1970 when it began, and when it was last used.
    public var createdAt: Double
    public var updatedAt: Double
    /// Answers in it.
    public var turns: Int
    /// Where a search matched in its messages; nil outside a search, or when only the title
    /// matched.
    public var snippet: MatchSnippet?
    /// Where it branched off another conversation (`/fork`), if it did.
    public var branchedFrom: BranchPoint?

    /// Creates a summary.
    public init(
        id: String, title: String, model: String, createdAt: Double, updatedAt: Double, turns: Int,
        snippet: MatchSnippet? = nil, branchedFrom: BranchPoint? = nil
    ) {
        self.branchedFrom = branchedFrom
        self.id = id
        self.title = title
        self.model = model
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.turns = turns
        self.snippet = snippet
    }
}
