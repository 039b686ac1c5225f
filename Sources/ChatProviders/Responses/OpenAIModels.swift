/// What chat knows of OpenAI's models, by name: which of them reason. A reasoning model is sent
/// `reasoning` and asked for its encrypted reasoning (to carry it across a tool loop) even when
/// no effort is set; another model is sent them only with an effort (a model that does not
/// reason refuses them).
enum OpenAIModels {
    /// Name patterns of reasoning models: a model whose name starts with one (or with
    /// `openai/` and one) reasons.
    static let reasoning = ["o1", "o3", "o4", "gpt-5", "codex"]
    /// What a name that starts like a reasoning model's holds when it is not one: the `gpt-5` family's chat
    /// models (`gpt-5-chat-latest`, `gpt-5.1-chat-latest`, …).
    static let notReasoning = ["-chat"]

    /// Whether `model` reasons.
    static func reasons(_ model: String) -> Bool {
        let name = model.hasPrefix("openai/") ? String(model.dropFirst("openai/".count)) : model
        guard !notReasoning.contains(where: name.contains) else { return false }
        return reasoning.contains(where: name.hasPrefix)
    }
}
