/// A named prompt (`chat -r review`): a system prompt, and the model and sampling settings it may
/// set. A prompt that holds `{{input}}` is instead a template for the message: the input takes
/// the placeholder's place and the whole is sent as the person's message.
public struct PromptRole: Sendable, Equatable {
    /// Its name.
    public var name: String
    /// Its prompt, placeholders and all.
    public var prompt: String
    /// What it sets of a conversation's settings: a model that is not empty, and each sampling
    /// value that is not nil (`stream` and `maxContextTokens` are not a role's).
    public var settings: ChatSettings
    /// Whether it is one chat comes with (a config may change it).
    public var isBuiltIn: Bool
    /// The settings it sets that hold for a whole run (a profile, tools, a provider's own), by
    /// the config's names, sorted: they apply when a run starts with the role, not when a
    /// running session takes it (`apply(to:)` sets neither).
    public var setsForTheRun: [String]

    /// The placeholder the input fills.
    public static let inputPlaceholder = "{{input}}"

    /// Creates a role.
    public init(
        name: String, prompt: String, settings: ChatSettings = ChatSettings(model: ""), isBuiltIn: Bool = false,
        setsForTheRun: [String] = []
    ) {
        self.name = name
        self.prompt = prompt
        self.settings = settings
        self.isBuiltIn = isBuiltIn
        self.setsForTheRun = setsForTheRun
    }

    /// Whether the prompt is a template for the message (it holds `{{input}}`).
    public var isTemplate: Bool {
        prompt.contains(Self.inputPlaceholder)
    }

    /// The system prompt the role gives: its prompt, unless that is a template for the message.
    public var systemPrompt: String? {
        isTemplate ? nil : prompt
    }

    /// The message to send for `input`: the template with `input` in place of every
    /// `{{input}}`, or `input` itself when the prompt is no template.
    public func message(for input: String) -> String {
        isTemplate ? prompt.replacing(Self.inputPlaceholder, with: input) : input
    }

    /// The role with every `{{name}}` of `values` in its prompt replaced by the value (`{{shell}}`
    /// and `{{os}}` for the `shell` role); other placeholders stay.
    public func filling(_ values: [String: String]) -> PromptRole {
        guard prompt.contains("{{") else { return self }
        var filled = self
        for (name, value) in values where name != "input" {
            filled.prompt = filled.prompt.replacing("{{\(name)}}", with: value)
        }
        return filled
    }

    /// `conversation` under this role: its system prompt (unless it is a template) and the
    /// settings it sets.
    public func apply(to conversation: Conversation) -> Conversation {
        var applied = conversation
        if let systemPrompt { applied.systemPrompt = systemPrompt }
        applied.settings = conversation.settings.overlaid(by: settings)
        return applied
    }
}
