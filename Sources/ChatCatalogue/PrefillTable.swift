/// Which of Anthropic's models take a prefill (a request whose last message is the assistant's,
/// for the model to continue): the one table chat resumes a broken answer by. The models before
/// the 4.6 generation do; Opus 4.6, Sonnet 4.6 and every model after them refuse one with a 400
/// ("This model does not support assistant message prefill. The conversation must end with a user
/// message.": Anthropic's release notes of 2026-02-05 for Opus 4.6, a raw 400 quoted for
/// claude-sonnet-4-6 in jikig-ai/soleur#3250; llm-anthropic 0.25 refuses a prefill for every model
/// with adaptive thinking). No model takes one with thinking on. A model the table does not know
/// is tried, once a run (`AnthropicProvider.continuation`).
package enum PrefillTable {
    /// The rows, most specific first: a model whose name contains the pattern takes that row.
    static let rows: [(pattern: String, takesPrefill: Bool)] = [
        // Refused: Opus and Sonnet 4.6 and later, the Claude 5 family.
        ("claude-opus-4-6", false),
        ("claude-sonnet-4-6", false),
        ("claude-opus-4-7", false),
        ("claude-opus-4-8", false),
        ("claude-opus-5", false),
        ("claude-sonnet-5", false),
        ("claude-haiku-5", false),
        ("claude-fable", false),
        ("claude-mythos", false),
        // Taken: the models before 4.6.
        ("claude-opus-4-5", true),
        ("claude-sonnet-4-5", true),
        ("claude-haiku-4-5", true),
        ("claude-opus-4-1", true),
        ("claude-opus-4-0", true),
        ("claude-opus-4-2025", true),
        ("claude-sonnet-4-0", true),
        ("claude-sonnet-4-2025", true),
        ("claude-3", true),
    ]

    /// Whether `model` takes a prefill; nil when the table does not know it.
    package static func takesPrefill(_ model: String) -> Bool? {
        rows.first { model.contains($0.pattern) }?.takesPrefill
    }
}
