import ChatDomain

extension StoredSettingsDTO {
    /// What of `settings` is stored with a conversation.
    init(_ settings: ChatSettings) {
        self.init(sampling: settings.sampling, provider: settings.provider)
    }

    /// `settings` with the stored values in place of its own.
    func applied(to settings: ChatSettings) -> ChatSettings {
        var settings = settings
        settings.sampling = sampling
        settings.provider = provider
        return settings
    }
}
