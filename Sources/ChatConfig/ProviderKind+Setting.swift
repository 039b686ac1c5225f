import ChatHTTP

extension ProviderKind: SettingTarget {
    /// The provider the `provider` setting names.
    init?(setting: SettingValue) {
        guard case .text(let word) = setting else { return nil }
        self.init(rawValue: word)
    }

    /// The environment variable that holds this provider's API key: `OPENAI_API_KEY` is never
    /// sent to another provider's API, nor `ANTHROPIC_API_KEY` to OpenAI's.
    package var keyVariable: String {
        switch self {
        case .openAI, .openAIResponses: "OPENAI_API_KEY"
        case .anthropic: "ANTHROPIC_API_KEY"
        }
    }

    /// The variable that sets `setting` with this provider, if one does: the settings table's
    /// (`OPENAI_BASE_URL`, `OPENAI_API_KEY`) are OpenAI's; Anthropic's key is `keyVariable`.
    package func environmentVariable(for setting: Setting) -> String? {
        switch self {
        case .openAI, .openAIResponses: setting.environment
        case .anthropic: setting.key == "api_key" ? keyVariable : nil
        }
    }

    /// What this provider's requests use where nothing else sets it, over the settings table's
    /// defaults (which are OpenAI's): Anthropic's API root and a model it has.
    package var defaults: [String: SettingValue] {
        switch self {
        case .openAI, .openAIResponses: [:]
        case .anthropic: ["base_url": .text("https://api.anthropic.com/v1"), "model": .text("claude-haiku-4-5")]
        }
    }

    /// Whether it is reached with OpenAI's key and addresses (`openai` and `openai-responses`):
    /// then a profile that names its own server uses only the key it names.
    package var isOpenAIs: Bool {
        keyVariable == ProviderKind.openAI.keyVariable
    }
}
