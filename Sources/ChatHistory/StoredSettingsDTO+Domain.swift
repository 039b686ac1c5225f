import ChatDomain

extension StoredSettingsDTO {
    /// What of `settings` is stored with a conversation.
    init(_ settings: ChatSettings) {
        self.init(
            sampling: settings.sampling,
            response_schema: settings.responseSchema.map { ResponseSchemaDTO(name: $0.name, schema: $0.schema) },
            provider: settings.provider)
    }

    /// `settings` with the stored values in place of its own.
    func applied(to settings: ChatSettings) -> ChatSettings {
        var settings = settings
        settings.sampling = sampling
        settings.responseSchema = response_schema.map { ResponseSchema(name: $0.name, schema: $0.schema) }
        settings.provider = provider
        return settings
    }
}
