import ChatDomain

/// What each message row stores of its conversation beside the message: the model, system
/// prompt and sampling settings it was sent with. A conversation is loaded with those of the
/// newest message on its branch.
struct StoredAlongside {
    var model: String?
    var systemPrompt: String?
    var settings: String?
    /// The profile that gave the answer in place of the conversation's own (`fallback`).
    var answeredBy: String?

    /// What the `message` row `row` stores alongside.
    init(_ row: SQLiteStatement) throws(StorageError) {
        model = try row.column("model")
        systemPrompt = try row.column("system_prompt")
        settings = try row.column("settings")
        answeredBy = try row.column("answered_by")
    }

    /// A conversation (no messages) with the model and system prompt of the newest of `rows`,
    /// and the settings of the newest that has them (rows stored before there were settings
    /// have none; ones that cannot be read are left out, not the conversation). An answer another
    /// profile gave (`fallback`) does not count: the conversation goes on with its own model.
    static func conversation(from rows: [StoredAlongside]) -> Conversation {
        let own = rows.filter { $0.answeredBy == nil }
        let rows = own.isEmpty ? rows : own
        var settings = ChatSettings(model: rows.last(where: { $0.model != nil })?.model ?? "")
        if let stored = rows.last(where: { $0.settings != nil })?.settings,
            let decoded = StoredSettingsDTO(jsonBytes: Array(stored.utf8))
        {
            settings = decoded.applied(to: settings)
        }
        return Conversation(systemPrompt: rows.last?.systemPrompt, settings: settings)
    }
}
