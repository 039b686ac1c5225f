import ChatDomain

/// The history's reads: listings of conversations, a search's matches, one conversation with its
/// messages, and the one id a prefix names.
enum ConversationQueries {
    /// Whether conversation `c` has an answer (an assistant message, whole or partial).
    static let answered = "EXISTS (SELECT 1 FROM message WHERE conversation_id = c.id AND role = 'assistant')"

    /// The conversations that meet `condition`, at most `limit`, and what was left out.
    static func listing(
        _ db: SQLiteConnection, where condition: String, arguments: [any SQLiteValue], limit: Int?,
        includingUnanswered: Bool
    ) throws(StorageError) -> ConversationListing {
        let shown = includingUnanswered ? condition : "\(condition) AND \(answered)"
        let summaries = try summaries(db, where: shown, arguments: arguments, limit: limit)
        var beyondLimit = 0
        if let limit, summaries.count == limit {
            beyondLimit = try count(db, where: shown, arguments: arguments) - limit
        }
        let unanswered =
            includingUnanswered ? 0 : try count(db, where: "\(condition) AND NOT \(answered)", arguments: arguments)
        return ConversationListing(summaries: summaries, unansweredLeftOut: unanswered, beyondLimit: beyondLimit)
    }

    /// The conversations whose messages hold every word of `text`, or whose title contains it,
    /// each with a snippet of where its messages matched.
    static func search(
        _ db: SQLiteConnection, _ text: String, limit: Int?, includingUnanswered: Bool
    ) throws(StorageError) -> ConversationListing {
        let query = matchQuery(text)
        var listing = try listing(
            db,
            where: """
                (c.id IN (SELECT m.conversation_id FROM message_fts JOIN message m ON m.id = message_fts.rowid
                          WHERE message_fts MATCH ?) OR c.title LIKE ? ESCAPE '\\')
                """,
            arguments: [query, likePattern(text)], limit: limit, includingUnanswered: includingUnanswered)
        for index in listing.summaries.indices {
            listing.summaries[index].snippet = try snippet(db, query: query, in: listing.summaries[index].id)
        }
        return listing
    }

    /// Every word of `text` as a quoted FTS5 string, so its punctuation is plain text; "" when
    /// there is no word.
    static func matchQuery(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).map { "\"" + $0.replacingOccurrences("\"", "\"\"") + "\"" }
            .joined(separator: " ")
    }

    /// A LIKE pattern matching `text` anywhere; LIKE's wildcards in the text are plain characters.
    private static func likePattern(_ text: String) -> String {
        var pattern = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
            pattern.append(character)
        }
        return "%" + pattern + "%"
    }

    private static func count(
        _ db: SQLiteConnection, where condition: String, arguments: [any SQLiteValue]
    ) throws(StorageError) -> Int {
        try db.firstRow("SELECT COUNT(*) FROM conversation c WHERE \(condition)", arguments) {
            row throws(StorageError) in try row.column(0, as: Int.self)
        } ?? 0
    }

    /// A few words around the match of `query` in the newest matching message of `conversation`,
    /// the matched words marked; nil when no message matches (the title did).
    private static func snippet(_ db: SQLiteConnection, query: String, in conversation: String) throws(StorageError)
        -> MatchSnippet?
    {
        let text = try db.firstRow(
            """
            SELECT snippet(message_fts, 0, char(1), char(2), '…', 12) FROM message_fts
            JOIN message m ON m.id = message_fts.rowid
            WHERE message_fts MATCH ? AND m.conversation_id = ? ORDER BY m.id DESC LIMIT 1
            """, [query, conversation]
        ) { row throws(StorageError) in try row.column(0, as: String.self) }
        return text.map(MatchSnippet.init(marked:))
    }

    static func summaries(
        _ db: SQLiteConnection, where condition: String, arguments: [any SQLiteValue], limit: Int?
    ) throws(StorageError) -> [ConversationSummary] {
        try db.rows(
            """
            SELECT c.id, c.title, c.created_at, c.updated_at,
                (SELECT model FROM message WHERE conversation_id = c.id ORDER BY id DESC LIMIT 1) AS model,
                (SELECT COUNT(*) FROM message WHERE conversation_id = c.id AND role = 'assistant') AS turns
            FROM conversation c WHERE \(condition) ORDER BY c.updated_at DESC, c.rowid DESC LIMIT \(limit ?? -1)
            """,
            arguments
        ) { row throws(StorageError) in
            ConversationSummary(
                id: try row.column("id"), title: try row.column("title"),
                model: try row.column("model", as: String?.self) ?? "", createdAt: try row.column("created_at"),
                updatedAt: try row.column("updated_at"), turns: try row.column("turns"))
        }
    }

    /// The most recently used conversation (with `answeredOnly`, of those with an answer).
    static func mostRecentlyUsed(_ db: SQLiteConnection, answeredOnly: Bool) throws(StorageError) -> Conversation? {
        let condition = answeredOnly ? "WHERE \(answered)" : ""
        let id = try db.firstRow("SELECT id FROM conversation c \(condition) ORDER BY updated_at DESC LIMIT 1") {
            row throws(StorageError) in try row.column(0, as: String.self)
        }
        guard let id else { return nil }
        return try conversation(db, id: id)
    }

    /// Conversation `id` (a full id) with its messages.
    static func conversation(_ db: SQLiteConnection, id: String) throws(StorageError) -> Conversation {
        let title = try db.firstRow("SELECT title FROM conversation WHERE id = ?", [id]) { row throws(StorageError) in
            try row.column(0, as: String.self)
        }
        guard let title else { throw StorageError.notFound(id: id) }
        var model = ""
        var systemPrompt: String?
        var storedSettings: String?
        let messages = try db.rows("SELECT * FROM message WHERE conversation_id = ? ORDER BY id", [id]) {
            row throws(StorageError) -> ChatMessage in
            model = try row.column("model", as: String?.self) ?? model
            systemPrompt = try row.column("system_prompt")
            storedSettings = try row.column("settings", as: String?.self) ?? storedSettings
            return try message(row)
        }
        // The settings of the newest message that has them (rows stored before have none); ones
        // that cannot be read are left out, not the conversation.
        var settings = ChatSettings(model: model)
        if let storedSettings,
            let stored = try? JSON.decode(StoredSettingsDTO.self, from: storedSettings, using: JSON.decoder())
        {
            settings = stored.applied(to: settings)
        }
        return Conversation(
            systemPrompt: systemPrompt, settings: settings, messages: messages, id: id,
            title: title.isEmpty ? nil : title)
    }

    /// The message a `message` row holds.
    private static func message(_ row: SQLiteStatement) throws(StorageError) -> ChatMessage {
        var usage: TokenUsage?
        if let prompt = try row.column("prompt_tokens", as: Int?.self) {
            usage = TokenUsage(
                promptTokens: prompt, completionTokens: try row.column("completion_tokens", as: Int?.self) ?? 0,
                totalTokens: try row.column("total_tokens"))
        }
        // An image's bytes are read again from its file, before any request: gone or changed,
        // the requests carry a note in its place.
        return ChatMessage(
            role: Role(rawValue: try row.column("role")) ?? .user, content: try row.column("content"),
            state: MessageState(rawValue: try row.column("state")) ?? .complete,
            reasoning: try row.column("reasoning"), usage: usage, storageID: try row.column("id"),
            images: StoredImageDTO.images(inColumn: try row.column("images", as: String?.self)))
    }

    /// The one full id that starts with `prefix`.
    static func resolve(_ db: SQLiteConnection, _ prefix: String) throws(StorageError) -> String {
        let pattern = prefix.lowercased().filter { $0.isLetter || $0.isNumber }
        guard !pattern.isEmpty else { throw StorageError.notFound(id: prefix) }
        let matches = try db.rows(
            "SELECT id FROM conversation WHERE id LIKE ? ORDER BY updated_at DESC LIMIT 6", [pattern + "%"]
        ) { row throws(StorageError) in try row.column(0, as: String.self) }
        guard let first = matches.first else { throw StorageError.notFound(id: prefix) }
        guard matches.count == 1 else { throw StorageError.ambiguous(id: prefix, matches: matches) }
        return first
    }
}

extension Substring {
    fileprivate func replacingOccurrences(_ target: Character, _ replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
