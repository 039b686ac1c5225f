import ChatDomain

/// What each message row stores of its conversation beside the message: the model, system
/// prompt and sampling settings it was sent with. A conversation is loaded with those of the
/// newest message on its branch.
struct StoredAlongside {
    var model: String?
    var systemPrompt: String?
    var settings: String?

    /// What the `message` row `row` stores alongside.
    init(_ row: SQLiteStatement) throws(StorageError) {
        model = try row.column("model")
        systemPrompt = try row.column("system_prompt")
        settings = try row.column("settings")
    }

    /// A conversation (no messages) with the model and system prompt of the newest of `rows`,
    /// and the settings of the newest that has them (rows stored before there were settings
    /// have none; ones that cannot be read are left out, not the conversation).
    static func conversation(from rows: [StoredAlongside]) -> Conversation {
        var settings = ChatSettings(model: rows.last(where: { $0.model != nil })?.model ?? "")
        if let stored = rows.last(where: { $0.settings != nil })?.settings,
            let decoded = StoredSettingsDTO(jsonBytes: Array(stored.utf8))
        {
            settings = decoded.applied(to: settings)
        }
        return Conversation(systemPrompt: rows.last?.systemPrompt, settings: settings)
    }
}
