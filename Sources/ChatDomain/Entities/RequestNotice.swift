/// Something a provider changed in a request, worth one line to the person (once a run).
public enum RequestNotice: Sendable, Equatable {
    /// A thinking budget (`--thinking`) was asked for as an effort: `model` takes only adaptive
    /// thinking, with a level.
    case budgetAsEffort(tokens: Int, effort: ReasoningEffort, model: String)
    /// An effort of `none` sent no thinking to `model`, which thinks adaptively and may still do
    /// so.
    case mayThinkUnasked(model: String)
    /// The run has a budget (`max_cost`), but what an answer of `model` cost is not known (no
    /// price, or no usage reported): the budget cannot be kept exactly.
    case costUnknown(model: String)
    /// The conversation neared the context window of `windowTokens` tokens: its oldest
    /// `messages` were summarised, and requests carry the summary in their place.
    case compacted(messages: Int, windowTokens: Int)
    /// The conversation is longer than the context window of `windowTokens` tokens, and no
    /// older turn could be summarised to make room (only the question being answered is left):
    /// the request goes as it is.
    case overWindow(windowTokens: Int)
    /// The run has spent `spent` US dollars of its budget `limit`: said before the person is
    /// asked whether to go on.
    case budgetSpent(spent: Double, limit: Double)
}
