import ChatDomain
import GRDB
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The history: every conversation in a SQLite database (WAL mode, through GRDB), written as it
/// happens. Several `chat` processes may write at once; a busy timeout and a lock around creation
/// and migration keep them from failing with "database is locked".
public final class SQLiteConversationStore: ConversationRecorder, ConversationHistory {
    private let database: DatabasePool
    private let report: @Sendable (String) -> Void
    private let reported = Mutex(false)

    /// Opens (creating and migrating if needed) `history.sqlite` in `directory`. `report` hears
    /// about a failed write, once: the chat goes on.
    public static func open(in directory: DataDirectory, report: @escaping @Sendable (String) -> Void)
        -> Result<SQLiteConversationStore, StorageError>
    {
        guard directory.prepare() else {
            return .failure(.database("cannot create \(directory.path)"))
        }
        let path = directory.file("history.sqlite")
        // Creation and migration under an exclusive lock: several first runs may race here.
        let lock = Glibc.open(directory.file("history.lock"), O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if lock >= 0 { flock(lock, LOCK_EX) }
        defer {
            if lock >= 0 {
                flock(lock, LOCK_UN)
                close(lock)
            }
        }
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(15)
            configuration.label = "chat-history"
            let pool = try DatabasePool(path: path, configuration: configuration)
            try HistorySchema.migrator.migrate(pool)
            for suffix in ["", "-wal", "-shm"] { chmod(path + suffix, 0o600) }
            return .success(SQLiteConversationStore(database: pool, report: report))
        } catch {
            return .failure(.database("cannot open \(path): \(error)"))
        }
    }

    init(database: DatabasePool, report: @escaping @Sendable (String) -> Void) {
        self.database = database
        self.report = report
    }

    // MARK: - ConversationRecorder

    public func begin(_ conversation: Conversation) -> String? {
        write { db in
            let now = Self.now()
            for _ in 0..<20 {
                let id = Self.newID()
                guard try Bool.fetchOne(db, sql: "SELECT 1 FROM conversation WHERE id = ?", arguments: [id]) == nil
                else { continue }
                try db.execute(
                    sql: "INSERT INTO conversation (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)",
                    arguments: [id, conversation.title ?? "", now, now])
                return id
            }
            throw StorageError.database("could not choose a conversation id")
        }
    }

    public func append(_ message: ChatMessage, settings: ChatSettings, systemPrompt: String?, to conversationID: String)
        -> Int64?
    {
        write { db in
            let now = Self.now()
            try db.execute(
                sql: """
                    INSERT INTO message (conversation_id, role, content, state, reasoning, model, system_prompt,
                        prompt_tokens, completion_tokens, total_tokens, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    conversationID, message.role.rawValue, message.content, message.state.rawValue, message.reasoning,
                    settings.model, systemPrompt, message.usage?.promptTokens, message.usage?.completionTokens,
                    message.usage?.totalTokens, now, now,
                ])
            let id = db.lastInsertedRowID
            if message.role == .user {
                try db.execute(
                    sql: "UPDATE conversation SET title = ? WHERE id = ? AND title = ''",
                    arguments: [Self.title(from: message.content), conversationID])
            }
            try Self.touch(db, conversationID, now)
            return id
        }
    }

    public func update(_ message: ChatMessage, id: Int64) {
        _ = write { db -> Bool in
            let now = Self.now()
            try db.execute(
                sql: """
                    UPDATE message SET content = ?, state = ?, reasoning = ?, prompt_tokens = ?,
                        completion_tokens = ?, total_tokens = ?, updated_at = ? WHERE id = ?
                    """,
                arguments: [
                    message.content, message.state.rawValue, message.reasoning, message.usage?.promptTokens,
                    message.usage?.completionTokens, message.usage?.totalTokens, now, id,
                ])
            if let conversation = try String.fetchOne(
                db, sql: "SELECT conversation_id FROM message WHERE id = ?", arguments: [id])
            {
                try Self.touch(db, conversation, now)
            }
            return true
        }
    }

    public func remove(ids: [Int64]) {
        guard !ids.isEmpty else { return }
        _ = write { db -> Bool in
            for id in ids { try db.execute(sql: "DELETE FROM message WHERE id = ?", arguments: [id]) }
            return true
        }
    }

    // MARK: - ConversationHistory

    public func list(limit: Int) -> Result<[ConversationSummary], StorageError> {
        read { db in try Self.summaries(db, where: "1", arguments: [], limit: limit) }
    }

    public func search(_ text: String, limit: Int) -> Result<[ConversationSummary], StorageError> {
        let words = text.split(whereSeparator: \.isWhitespace).map {
            "\"" + $0.replacingOccurrences("\"", "\"\"") + "\""
        }
        guard !words.isEmpty else { return .success([]) }
        let query = words.joined(separator: " ")
        // The title matches the text anywhere in it; LIKE's wildcards in the text are plain characters.
        var pattern = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
            pattern.append(character)
        }
        return read { db in
            try Self.summaries(
                db,
                where: """
                    c.id IN (SELECT m.conversation_id FROM message_fts JOIN message m ON m.id = message_fts.rowid
                             WHERE message_fts MATCH ?) OR c.title LIKE ? ESCAPE '\\'
                    """,
                arguments: [query, "%" + pattern + "%"], limit: limit)
        }
    }

    public func mostRecentlyUsed() -> Result<Conversation?, StorageError> {
        read { db in
            guard let id = try String.fetchOne(db, sql: "SELECT id FROM conversation ORDER BY updated_at DESC LIMIT 1")
            else { return nil }
            return try Self.conversation(db, id: id)
        }
    }

    public func load(_ id: String) -> Result<Conversation, StorageError> {
        read { db in try Self.conversation(db, id: try Self.resolve(db, id)) }
    }

    public func delete(_ id: String) -> Result<ConversationSummary, StorageError> {
        writeResult { db in
            let full = try Self.resolve(db, id)
            let summary = try Self.summaries(db, where: "c.id = ?", arguments: [full], limit: 1)
            try db.execute(sql: "DELETE FROM message WHERE conversation_id = ?", arguments: [full])
            try db.execute(sql: "DELETE FROM conversation WHERE id = ?", arguments: [full])
            guard let first = summary.first else { throw StorageError.notFound(id: id) }
            return first
        }
    }

    public func rename(_ id: String, title: String) -> Result<Void, StorageError> {
        writeResult { db in
            let full = try Self.resolve(db, id)
            try db.execute(sql: "UPDATE conversation SET title = ? WHERE id = ?", arguments: [title, full])
        }
    }

    // MARK: - Pieces

    private static func summaries(_ db: Database, where condition: String, arguments: StatementArguments, limit: Int)
        throws -> [ConversationSummary]
    {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT c.id, c.title, c.created_at, c.updated_at,
                    (SELECT model FROM message WHERE conversation_id = c.id ORDER BY id DESC LIMIT 1) AS model,
                    (SELECT COUNT(*) FROM message WHERE conversation_id = c.id AND role = 'assistant') AS turns
                FROM conversation c WHERE \(condition) ORDER BY c.updated_at DESC, c.rowid DESC LIMIT \(limit)
                """,
            arguments: arguments)
        return rows.map { row in
            ConversationSummary(
                id: row["id"], title: row["title"], model: row["model"] ?? "", createdAt: row["created_at"],
                updatedAt: row["updated_at"], turns: row["turns"])
        }
    }

    private static func conversation(_ db: Database, id: String) throws -> Conversation {
        guard let row = try Row.fetchOne(db, sql: "SELECT title FROM conversation WHERE id = ?", arguments: [id]) else {
            throw StorageError.notFound(id: id)
        }
        let rows = try Row.fetchAll(
            db, sql: "SELECT * FROM message WHERE conversation_id = ? ORDER BY id", arguments: [id])
        var model = ""
        var systemPrompt: String?
        let messages = rows.map { row -> ChatMessage in
            model = row["model"] ?? model
            systemPrompt = row["system_prompt"]
            let usage: TokenUsage? = (row["prompt_tokens"] as Int?).map { prompt in
                TokenUsage(
                    promptTokens: prompt, completionTokens: row["completion_tokens"] ?? 0,
                    totalTokens: row["total_tokens"])
            }
            return ChatMessage(
                role: Role(rawValue: row["role"]) ?? .user, content: row["content"],
                state: MessageState(rawValue: row["state"]) ?? .complete, reasoning: row["reasoning"], usage: usage,
                storageID: row["id"])
        }
        let title: String = row["title"]
        return Conversation(
            systemPrompt: systemPrompt, settings: ChatSettings(model: model), messages: messages, id: id,
            title: title.isEmpty ? nil : title)
    }

    /// The one full id that starts with `prefix`.
    private static func resolve(_ db: Database, _ prefix: String) throws -> String {
        let pattern = prefix.lowercased().filter { $0.isLetter || $0.isNumber }
        guard !pattern.isEmpty else { throw StorageError.notFound(id: prefix) }
        let matches = try String.fetchAll(
            db, sql: "SELECT id FROM conversation WHERE id LIKE ? ORDER BY updated_at DESC LIMIT 6",
            arguments: [pattern + "%"])
        guard let first = matches.first else { throw StorageError.notFound(id: prefix) }
        guard matches.count == 1 else { throw StorageError.ambiguous(id: prefix, matches: matches) }
        return first
    }

    private static func touch(_ db: Database, _ id: String, _ now: Double) throws {
        try db.execute(sql: "UPDATE conversation SET updated_at = ? WHERE id = ?", arguments: [now, id])
    }

    /// The first words of a message, on one line.
    static func title(from text: String) -> String {
        let words = text.split(whereSeparator: \.isWhitespace).prefix(8).joined(separator: " ")
        return words.count > 60 ? String(words.prefix(59)) + "…" : words
    }

    static func newID() -> String {
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz")
        return String((0..<8).map { _ in alphabet[Int.random(in: 0..<alphabet.count)] })
    }

    static func now() -> Double {
        HTTPDate.now()
    }

    private func write<T>(_ body: (Database) throws -> T) -> T? {
        switch writeResult(body) {
        case .success(let value): return value
        case .failure(let error):
            let first = reported.withLock { reported in
                defer { reported = true }
                return !reported
            }
            if first { report("history: could not save (\(error)); the conversation goes on unsaved") }
            return nil
        }
    }

    private func writeResult<T>(_ body: (Database) throws -> T) -> Result<T, StorageError> {
        perform { try database.write(body) }
    }

    private func read<T>(_ body: (Database) throws -> T) -> Result<T, StorageError> {
        perform { try database.read(body) }
    }

    private func perform<T>(_ operation: () throws -> T) -> Result<T, StorageError> {
        do {
            return .success(try operation())
        } catch let error as StorageError {
            return .failure(error)
        } catch {
            return .failure(.database(String(describing: error)))
        }
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
