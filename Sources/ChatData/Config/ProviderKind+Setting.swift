extension ProviderKind: SettingTarget {
    /// The provider the `provider` setting names.
    init?(setting: SettingValue) {
        guard case .text(let word) = setting else { return nil }
        self.init(rawValue: word)
    }
}
