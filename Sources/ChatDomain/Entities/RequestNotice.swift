/// Something a provider changed in a request, worth one line to the person (once a run).
public enum RequestNotice: Sendable, Equatable {
    /// A thinking budget (`--thinking`) was asked for as an effort: `model` takes only adaptive
    /// thinking, with a level.
    case budgetAsEffort(tokens: Int, effort: ReasoningEffort, model: String)
    /// An effort of `none` sent no thinking to `model`, which thinks adaptively and may still do
    /// so.
    case mayThinkUnasked(model: String)
}
