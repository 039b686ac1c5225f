import ChatDomain
import ChatHTTP

/// What an Anthropic request asks of the model's thinking, from the conversation's effort
/// (`--effort`) or the run's budget (`--thinking`), in the form the model takes: adaptive thinking
/// with an effort (`low` … `max`), or a budget of tokens. Nothing when neither is set, or the
/// effort is `none`.
enum AnthropicThinking: Equatable {
    /// `thinking: {"type": "adaptive"}` with `output_config.effort`.
    case adaptive(effort: String)
    /// `thinking: {"type": "enabled", "budget_tokens": N}`.
    case budget(tokens: Int)

    /// The thinking to ask for in `form`, with `effort` if the conversation sets one, else
    /// `budget`; nil for none. `budgetAsEffort` is set when a budget became an effort (a model
    /// that takes only adaptive thinking).
    static func asked(effort: ReasoningEffort?, budget: Int?, form: ThinkingForm) -> (
        Self, budgetAsEffort: ReasoningEffort?
    )? {
        switch (form, effort, budget) {
        case (_, .none?, _): return nil
        case (.adaptive, let effort?, _): return (.adaptive(effort: adaptiveLevel(effort)), nil)
        case (.budget, let effort?, _): return budgetTokens(effort).map { (.budget(tokens: $0), nil) }
        case (.adaptive, nil, let tokens?):
            let effort = nearestEffort(toBudget: tokens)
            return (.adaptive(effort: adaptiveLevel(effort)), effort)
        case (.budget, nil, let tokens?): return (.budget(tokens: tokens), nil)
        case (_, nil, nil): return nil
        }
    }

    /// Anthropic's effort for a level: its levels are `low` … `max`; `minimal` asks for `low`.
    static func adaptiveLevel(_ effort: ReasoningEffort) -> String {
        effort == .minimal ? "low" : effort.rawValue
    }

    /// The budget of tokens a level stands for with a model that takes only a budget.
    static func budgetTokens(_ effort: ReasoningEffort) -> Int? {
        switch effort {
        case .none: nil
        case .minimal: 1024
        case .low: 2048
        case .medium: 8192
        case .high: 16384
        case .xhigh: 32000
        case .max: 64000
        }
    }

    /// The level whose budget is nearest `tokens` (a `--thinking` budget for a model that takes
    /// only an effort).
    static func nearestEffort(toBudget tokens: Int) -> ReasoningEffort {
        ReasoningEffort.allCases.compactMap { effort in budgetTokens(effort).map { (effort, abs($0 - tokens)) } }
            .min { $0.1 < $1.1 }?.0 ?? .high
    }
}
