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
}
