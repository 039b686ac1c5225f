/// How an Anthropic model is asked to think: Claude's newer models take adaptive thinking with an
/// effort, its older ones a budget of tokens.
public enum ThinkingForm: String, Sendable, CaseIterable {
    /// `thinking: {"type": "adaptive"}` and `output_config: {"effort": …}`.
    case adaptive
    /// `thinking: {"type": "enabled", "budget_tokens": N}`.
    case budget
}
