import ChatHTTP

/// What chat knows of Anthropic's models, by name: the one table of which form of thinking each
/// takes. Claude's newest models take only adaptive thinking (a budget is refused with a 400);
/// Opus 4.6 and Sonnet 4.6 take both (adaptive first); the models before them only a budget. A
/// model the table does not know is asked the adaptive way, and the provider falls back to the
/// other form once a server says it needs it (`AnthropicProvider.fallback`). A profile's
/// `thinking_form` overrides the table.
enum AnthropicModels {
    /// How a model takes thinking.
    struct Thinking: Equatable {
        /// The form to ask for first.
        var form: ThinkingForm
        /// Whether it also takes a budget (when `form` is adaptive).
        var takesBudget: Bool
    }

    /// The rows, most specific first: a model whose name contains the pattern takes that row.
    static let rows: [(pattern: String, thinking: Thinking)] = [
        // Only adaptive: Opus 4.7 and later, the Claude 5 family (docs.claude.com: adaptive thinking).
        ("claude-opus-4-7", Thinking(form: .adaptive, takesBudget: false)),
        ("claude-opus-4-8", Thinking(form: .adaptive, takesBudget: false)),
        ("claude-opus-5", Thinking(form: .adaptive, takesBudget: false)),
        ("claude-sonnet-5", Thinking(form: .adaptive, takesBudget: false)),
        ("claude-haiku-5", Thinking(form: .adaptive, takesBudget: false)),
        ("claude-fable", Thinking(form: .adaptive, takesBudget: false)),
        ("claude-mythos", Thinking(form: .adaptive, takesBudget: false)),
        // Both: adaptive first, a budget deprecated but taken.
        ("claude-opus-4-6", Thinking(form: .adaptive, takesBudget: true)),
        ("claude-sonnet-4-6", Thinking(form: .adaptive, takesBudget: true)),
        // Only a budget: the models before 4.6.
        ("claude-opus-4-5", Thinking(form: .budget, takesBudget: true)),
        ("claude-sonnet-4-5", Thinking(form: .budget, takesBudget: true)),
        ("claude-haiku-4-5", Thinking(form: .budget, takesBudget: true)),
        ("claude-opus-4-1", Thinking(form: .budget, takesBudget: true)),
        ("claude-opus-4-0", Thinking(form: .budget, takesBudget: true)),
        ("claude-opus-4-2025", Thinking(form: .budget, takesBudget: true)),
        ("claude-sonnet-4-0", Thinking(form: .budget, takesBudget: true)),
        ("claude-sonnet-4-2025", Thinking(form: .budget, takesBudget: true)),
        ("claude-3-7-sonnet", Thinking(form: .budget, takesBudget: true)),
    ]

    /// A model the table does not know: adaptive first, a budget if the server says so.
    static let unknown = Thinking(form: .adaptive, takesBudget: true)

    /// How `model` takes thinking.
    static func thinking(of model: String) -> Thinking {
        rows.first { model.contains($0.pattern) }?.thinking ?? unknown
    }
}
