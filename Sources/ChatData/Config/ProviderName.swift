/// Which provider's API the server speaks (the `provider` setting, at the top level or in a
/// profile); the composition root builds that provider's repository.
public enum ProviderName: String, CaseIterable, Sendable {
    /// OpenAI's Chat Completions API, which most servers speak.
    case openai
}

extension ProviderName: SettingTarget {
    init?(setting: SettingValue) {
        guard case .text(let word) = setting else { return nil }
        self.init(rawValue: word)
    }
}
