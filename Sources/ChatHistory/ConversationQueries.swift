import ChatDomain

/// The history's reads: listings of conversations, a search's matches, one conversation with its
/// messages, and the one id a prefix names.
enum ConversationQueries {
    /// Whether conversation `c` has an answer (an assistant message, whole or partial): a column
    /// the schema's triggers keep.
    static let answered = "c.answered = 1"

    /// Whether a `message` row is an answer that counts as a turn: not one that only led to tool
    /// calls (a round of tool calls is part of the answer it led to). Its `parts` are written
    /// compact, and a string in them cannot hold an unescaped `"`, so the text below is found
    /// only as a part's type.
    static let turnAnswer = """
        role = 'assistant' AND (parts IS NULL OR instr(parts, '"type":"\(StoredPartDTO.toolCallType)"') = 0)
        """

    /// The conversations that meet `condition`, at most `limit`, and what was left out.
    /// With `matchesFirst`, the conversations that meet `condition` are few and read one by one,
    /// not found through the answered ones' index (`+` keeps SQLite from using it).
    static func listing(
        _ db: SQLiteConnection, where condition: String, arguments: [any SQLiteValue], limit: Int?,
        includingUnanswered: Bool, matchesFirst: Bool = false
    ) throws(StorageError) -> ConversationListing {
        let answered = matchesFirst ? "+" + Self.answered : Self.answered
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
        // The conversations that match, found once (the listing counts them and lists some):
        // then each is looked up by its id, and no conversation that does not match is read.
        try db.execute("CREATE TEMP TABLE IF NOT EXISTS search_match (id TEXT PRIMARY KEY) WITHOUT ROWID")
        try db.execute("DELETE FROM temp.search_match")
        try db.run(
            """
            INSERT INTO temp.search_match
            SELECT m.conversation_id FROM message_fts JOIN message m ON m.id = message_fts.rowid
            WHERE message_fts MATCH ?
            UNION SELECT id FROM conversation WHERE title LIKE ? ESCAPE '\\'
            """, [query, likePattern(text)])
        var listing = try listing(
            db, where: "c.id IN (SELECT id FROM temp.search_match)", arguments: [], limit: limit,
            includingUnanswered: includingUnanswered, matchesFirst: true)
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
            SELECT c.id, c.title, c.created_at, c.updated_at, c.parent_id, c.branched_from, c.branch_turn,
                (SELECT model FROM message WHERE conversation_id = c.id AND answered_by IS NULL ORDER BY id DESC LIMIT 1)
                    AS model,
                CASE WHEN c.branched THEN \(answersOnBranch)
                    ELSE (SELECT COUNT(*) FROM message WHERE conversation_id = c.id AND \(turnAnswer)) END AS turns
            FROM conversation c WHERE \(condition) ORDER BY c.updated_at DESC, c.rowid DESC LIMIT ?
            """,
            // Bound, not written into the SQL: one kept statement serves every limit.
            arguments + [limit ?? -1]
        ) { row throws(StorageError) in
            ConversationSummary(
                id: try row.column("id"), title: try row.column("title"),
                model: try row.column("model", as: String?.self) ?? "", createdAt: try row.column("created_at"),
                updatedAt: try row.column("updated_at"), turns: try row.column("turns"),
                branchedFrom: try branchPoint(row))
        }
    }

    /// The answers on the branch conversation `c` shows (one that never branched shows them
    /// all), as `BranchTree` finds it: from the
    /// head (or, past messages an older release added, the newest) up through each message's
    /// parent (0: none; NULL: the message before it).
    private static let answersOnBranch = """
        (WITH RECURSIVE branch(id) AS (
            SELECT NULLIF(\(BranchTree.headSQL), 0)
            UNION ALL
            SELECT CASE WHEN m.parent_id IS NULL THEN
                    (SELECT MAX(p.id) FROM message p WHERE p.conversation_id = m.conversation_id AND p.id < m.id)
                WHEN m.parent_id = 0 THEN NULL ELSE m.parent_id END
            FROM message m JOIN branch b ON m.id = b.id
        ) SELECT COUNT(*) FROM message WHERE id IN (SELECT id FROM branch) AND \(turnAnswer))
        """

    /// Where the conversation on `row` branched off another, if it did.
    private static func branchPoint(_ row: SQLiteStatement) throws(StorageError) -> BranchPoint? {
        guard let parent = try row.column("parent_id", as: String?.self) else { return nil }
        return BranchPoint(
            conversationID: parent, messageID: try row.column("branched_from"),
            turn: try row.column("branch_turn", as: Int?.self) ?? 0)
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

    /// Conversation `id` (a full id) with the messages of the branch it shows.
    static func conversation(_ db: SQLiteConnection, id: String) throws(StorageError) -> Conversation {
        let found = try db.firstRow(
            "SELECT title, head_id, parent_id, branched_from, branch_turn FROM conversation WHERE id = ?", [id]
        ) { row throws(StorageError) in
            (try row.column("title", as: String.self), try row.column("head_id", as: Int64?.self), try branchPoint(row))
        }
        guard let (title, head, branchedFrom) = found else { throw StorageError.notFound(id: id) }
        let rows = try db.rows("SELECT * FROM message WHERE conversation_id = ? ORDER BY id", [id]) {
            row throws(StorageError) -> (message: ChatMessage, parentID: Int64?, stored: StoredAlongside) in
            (try message(row, db), try row.column("parent_id"), try StoredAlongside(row))
        }
        let tree = BranchTree(rows.map { ($0.message.storageID ?? 0, $0.parentID) })
        let shown = Set(tree.branch(endingAt: tree.head(stored: head)))
        let branch = rows.filter { shown.contains($0.message.storageID ?? 0) }
        let alongside = StoredAlongside.conversation(from: branch.map(\.stored))
        let messages = branch.map(\.message)
        return Conversation(
            systemPrompt: alongside.systemPrompt, settings: alongside.settings, messages: messages, id: id,
            title: title.isEmpty ? nil : title, branchedFrom: branchedFrom,
            compaction: try CompactionRows.newest(of: id, over: messages, db))
    }

    /// The messages stored with the same parent as message `id` (a stored one), oldest first.
    static func alternatives(to id: Int64, _ db: SQLiteConnection) throws(StorageError) -> [ChatMessage] {
        guard let conversation = try conversationID(of: id, db) else { return [] }
        let siblings = try BranchTree.read(conversation, db).siblings(of: id)
        let role = try db.firstRow("SELECT role FROM message WHERE id = ?", [id]) { row throws(StorageError) in
            try row.column(0, as: String.self)
        }
        var alternatives: [ChatMessage] = []
        for sibling in siblings {
            let found = try db.firstRow("SELECT * FROM message WHERE id = ? AND role IS ?", [sibling, role]) {
                row throws(StorageError) in try message(row, db)
            }
            if let found { alternatives.append(found) }
        }
        return alternatives
    }

    /// Makes the branch through message `id` (down to its newest message) the one conversation
    /// `conversationID` shows; returns the conversation.
    static func showBranch(through id: Int64, of conversationID: String, _ db: SQLiteConnection) throws(StorageError)
        -> Conversation
    {
        guard try self.conversationID(of: id, db) == conversationID else {
            throw StorageError.notFound(id: conversationID)
        }
        try MessageRows.setHead(of: conversationID, to: try BranchTree.read(conversationID, db).newest(through: id), db)
        return try conversation(db, id: conversationID)
    }

    /// The conversation message `id` belongs to.
    private static func conversationID(of id: Int64, _ db: SQLiteConnection) throws(StorageError) -> String? {
        try db.firstRow("SELECT conversation_id FROM message WHERE id = ?", [id]) { row throws(StorageError) in
            try row.column(0, as: String.self)
        }
    }

    /// The message a `message` row holds; the bytes of a file it fetched from `db`.
    private static func message(_ row: SQLiteStatement, _ db: SQLiteConnection) throws(StorageError) -> ChatMessage {
        var usage: TokenUsage?
        if let prompt = try row.column("prompt_tokens", as: Int?.self) {
            usage = TokenUsage(
                promptTokens: prompt, completionTokens: try row.column("completion_tokens", as: Int?.self) ?? 0,
                totalTokens: try row.column("total_tokens"))
            usage?.costUSD = try row.column("cost_usd", as: Double?.self)
        }
        let role = Role(rawValue: try row.column("role")) ?? .user
        let state = MessageState(rawValue: try row.column("state")) ?? .complete
        var message: ChatMessage
        // A message with tool calls or results is made of its stored parts (its `content` is
        // what the search index reads).
        if let parts = StoredPartDTO.parts(inColumn: try row.column("parts", as: String?.self)) {
            message = ChatMessage(
                role: role, parts: parts, state: state, reasoning: try row.column("reasoning"), usage: usage,
                storageID: try row.column("id"))
        } else {
            // An image's bytes are read again from its file, before any request: gone or changed,
            // the requests carry a note in its place. A fetched one's are kept in the history.
            message = ChatMessage(
                role: role, content: try row.column("content"), state: state,
                reasoning: try row.column("reasoning"), usage: usage, storageID: try row.column("id"),
                images: StoredImageDTO.images(
                    inColumn: try row.column("images", as: String?.self),
                    keptBytes: { FetchedFiles.bytes($0, db) }))
        }
        if let profile = try row.column("answered_by", as: String?.self) {
            message.answeredBy = AnsweredBy(profile: profile, model: try row.column("model", as: String?.self) ?? "")
        }
        message.resumed = try row.column("resumed", as: Int?.self) == 1
        return message
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
