import ChatHTTP

extension ThinkingForm: SettingTarget {
    /// The form the `thinking_form` setting names.
    init?(setting: SettingValue) {
        guard case .text(let word) = setting else { return nil }
        self.init(rawValue: word)
    }
}
