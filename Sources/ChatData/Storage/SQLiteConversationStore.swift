import ChatDomain
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The history: every conversation in a SQLite database (WAL mode), written as it happens.
/// Several `chat` processes may write at once; a busy timeout and a lock around creation and
/// migration keep them from failing with "database is locked".
///
/// All database work runs on one serial queue of the store's own, never on the caller's thread
/// (Swift's small cooperative pool, which the answer's stream needs): callers await the result,
/// checkpoints of a streaming answer are queued without waiting, and opening is the first job,
/// so every use comes after it.
public final class SQLiteConversationStore: ConversationRecorder, ConversationHistory {
    /// The connection, touched only on `queue`.
    private final class Connection: @unchecked Sendable {
        // `@unchecked`: read and written only by jobs on the store's serial queue.
        var database: SQLiteConnection?
        var openingError: StorageError?
    }

    private let queue = DispatchQueue(label: "chat.history")
    private let connection = Connection()
    private let report: @Sendable (String) -> Void
    private let reported = Mutex(false)
    /// How often a streaming answer is stored at least.
    let checkpointInterval: Duration

    /// Opens (creating and migrating if needed) `history.sqlite` in `directory`. `report` hears
    /// about a failed write, once: the chat goes on.
    public static func open(
        in directory: DataDirectory, checkpointInterval: Duration = .seconds(1),
        report: @escaping @Sendable (String) -> Void
    ) async -> Result<SQLiteConversationStore, StorageError> {
        let store = openInBackground(in: directory, checkpointInterval: checkpointInterval, report: report)
        let error = await store.onQueue { store.connection.openingError }
        return error.map { .failure($0) } ?? .success(store)
    }

    /// Starts opening the history and returns at once; every use comes after it. Why: opening
    /// reads the database and its WAL, a few milliseconds that can pass while the request is on
    /// its way. If it fails, `report` hears why at the first write (once) and nothing is stored;
    /// reads fail with the reason.
    public static func openInBackground(
        in directory: DataDirectory, checkpointInterval: Duration = .seconds(1),
        report: @escaping @Sendable (String) -> Void
    ) -> SQLiteConversationStore {
        let store = SQLiteConversationStore(checkpointInterval: checkpointInterval, report: report)
        store.queue.async {
            switch Self.connect(in: directory) {
            case .success(let database): store.connection.database = database
            case .failure(let error): store.connection.openingError = error
            }
        }
        return store
    }

    /// The open connection to the history database in `directory`.
    private static func connect(in directory: DataDirectory) -> Result<SQLiteConnection, StorageError> {
        guard directory.prepare() else {
            return .failure(.database("cannot create \(directory.path)"))
        }
        let path = directory.file("history.sqlite")
        // Creation and migration under an exclusive lock: several first runs may race here.
        let lock = openLockFile(directory.file("history.lock"))
        if lock >= 0 { flock(lock, LOCK_EX) }
        defer {
            if lock >= 0 {
                flock(lock, LOCK_UN)
                close(lock)
            }
        }
        do throws(StorageError) {
            let connection = try SQLiteConnection(path: path)
            try connection.setBusyTimeout(milliseconds: 15_000)
            // In WAL mode a commit then does not wait for the disk: a crash or kill of the process
            // loses nothing, a power cut or OS crash may lose the last commits (never consistency).
            // Set first, so that creating a database syncs less too.
            try connection.execute("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON")
            // A run touches few pages: a small page cache (256 KiB, not 2 MiB) keeps the memory
            // of a long answer's write down. The WAL is checkpointed when a run opens it past
            // 250 pages (below), and by SQLite at a commit only past 1,000 (4 MB): a commit's
            // checkpoint (three fsyncs) delays what waits for that commit, such as the answer.
            // With no size limit to keep, the WAL's file is cut back to what it holds when it
            // starts over, so its size tells how much it holds.
            try connection.execute(
                "PRAGMA cache_size = -\(Self.cacheKiB); PRAGMA wal_autocheckpoint = 1000; PRAGMA journal_size_limit = 0"
            )
            let mode = try connection.firstRow("PRAGMA journal_mode = WAL") { row throws(StorageError) in
                try row.column(0, as: String.self)
            }
            guard mode == "wal" else { throw StorageError.database("cannot use WAL mode (\(mode ?? "no mode"))") }
            // Closing runs no checkpoint (two fsyncs a run).
            try connection.disableCheckpointOnClose()
            try HistorySchema.migrate(connection)
            // The first connection reads the whole WAL (1.1 ms at 250 pages). Past that, what
            // the last runs wrote (a `/load`ed conversation, long answers) goes into the
            // database now, while chat reads its input and sends the request, not at a commit
            // the answer waits for. PASSIVE: never waits for another process. One that fails
            // leaves the WAL as it is, for a later one: the history still opens.
            if FileSystem.size(path + "-wal") ?? 0 > Self.walCheckpointBytes {
                try? connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
            }
            for suffix in ["", "-wal", "-shm"] { _ = FileSystem.restrictIfNeeded(path + suffix, mode: 0o600) }
            return .success(connection)
        } catch {
            return .failure(.database("cannot open \(path): \(reason(error))"))
        }
    }

    /// 250 WAL frames of a 4 KiB page (each with its 24-byte header).
    static let walCheckpointBytes = 250 * (4096 + 24)

    private init(checkpointInterval: Duration, report: @escaping @Sendable (String) -> Void) {
        self.checkpointInterval = checkpointInterval
        self.report = report
    }

    // MARK: - ConversationRecorder

    public func begin(_ conversation: Conversation) async -> String? {
        await write { db throws(StorageError) in try Self.insert(conversation, db) }
    }

    /// The conversation and its first messages in one transaction: one commit, and the
    /// conversation's pages written once, not in each of two (a one-shot waits for it before
    /// reading the answer).
    public func begin(_ conversation: Conversation, storing messages: [ChatMessage]) async
        -> (id: String, messageIDs: [Int64]?)?
    {
        await write { db throws(StorageError) -> (id: String, messageIDs: [Int64]?) in
            let id = try Self.insert(conversation, db)
            guard !messages.isEmpty else { return (id, []) }
            let ids = try Self.insert(
                messages, settings: conversation.settings, systemPrompt: conversation.systemPrompt, into: id, db)
            return (id, ids)
        }
    }

    /// Inserts `conversation` (no messages) under a new id, which it returns.
    private static func insert(_ conversation: Conversation, _ db: SQLiteConnection) throws(StorageError) -> String {
        let now = Self.now()
        for _ in 0..<20 {
            let id = Self.newID()
            let taken = try db.firstRow("SELECT 1 FROM conversation WHERE id = ?", [id]) { _ throws(StorageError) in
                true
            }
            guard taken == nil else { continue }
            try db.run(
                "INSERT INTO conversation (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)",
                [id, conversation.title ?? "", now, now])
            return id
        }
        throw StorageError.database("could not choose a conversation id")
    }

    /// All of `messages` in one transaction (a `/load`ed conversation of a thousand turns is
    /// stored at once, not in two thousand commits), and many rows per `INSERT`. The full-text
    /// index takes them in at the next search (`SearchIndex`), not here.
    public func append(
        contentsOf messages: [ChatMessage], settings: ChatSettings, systemPrompt: String?, to conversationID: String
    ) async -> [Int64]? {
        guard !messages.isEmpty else { return [] }
        return await write { db throws(StorageError) in
            try Self.insert(messages, settings: settings, systemPrompt: systemPrompt, into: conversationID, db)
        }
    }

    /// Inserts `messages`, as `append` stores them; returns their row ids.
    static func insert(
        _ messages: [ChatMessage], settings: ChatSettings, systemPrompt: String?, into conversationID: String,
        _ db: SQLiteConnection
    ) throws(StorageError) -> [Int64] {
        let now = Self.now()
        let storedSettings = Self.json(StoredSettingsDTO(settings))
        // Many rows (a `/load`ed conversation) touch many pages of the table and its index:
        // with the usual 256 KiB cache they are written out and read back again within the
        // transaction. A larger cache for this one write, given back after.
        let bulk = messages.count > Self.rowsPerInsert
        if bulk { try Self.setCache(db, bulk: true) }
        defer { if bulk { try? Self.setCache(db, bulk: false) } }
        var ids: [Int64] = []
        ids.reserveCapacity(messages.count)
        // One statement for every full batch of rows (parsing a long INSERT costs about as much
        // as running it), and one for the rest.
        var full: SQLiteStatement?
        var start = 0
        while start < messages.count {
            let rows = messages[start..<min(start + Self.rowsPerInsert, messages.count)]
            let insert: SQLiteStatement
            if rows.count == Self.rowsPerInsert, let full {
                insert = full
            } else {
                insert = try SQLiteStatement(Self.insertSQL(rows: rows.count), on: db)
                if rows.count == Self.rowsPerInsert { full = insert }
            }
            var arguments = SQLiteArguments(capacity: rows.count * 14)
            for message in rows {
                arguments.append(conversationID)
                arguments.append(message.role.rawValue)
                arguments.append(message.content)
                arguments.append(message.state.rawValue)
                arguments.append(message.reasoning)
                arguments.append(settings.model)
                arguments.append(systemPrompt)
                arguments.append(storedSettings)
                arguments.append(message.usage?.promptTokens)
                arguments.append(message.usage?.completionTokens)
                arguments.append(message.usage?.totalTokens)
                arguments.append(now)
                arguments.append(now)
                arguments.append(StoredImageDTO.column(message.images))
            }
            try insert.run(arguments)
            // One INSERT in a write transaction numbers its rows one after another, in the
            // order listed (AUTOINCREMENT): the last id tells them all. (`RETURNING` would
            // need SQLite 3.35.)
            let last = db.lastInsertedRowID
            ids += (last - Int64(rows.count) + 1)...last
            start += rows.count
        }
        // A conversation is titled after its first question.
        if let question = messages.first(where: { $0.role == .user }) {
            try db.run(
                "UPDATE conversation SET title = ? WHERE id = ? AND title = ''",
                [Self.title(from: question.content), conversationID])
        }
        try Self.touch(db, conversationID, now)
        return ids
    }

    /// The page cache a connection keeps, and the one while many rows are stored or indexed at once.
    static let cacheKiB = 256
    static let bulkCacheKiB = 8192

    /// Sets the page cache to the bulk size or back to the usual one.
    static func setCache(_ db: SQLiteConnection, bulk: Bool) throws(StorageError) {
        try db.execute("PRAGMA cache_size = -\(bulk ? bulkCacheKiB : cacheKiB)")
    }

    /// 71 rows of 14 values: under the 999 bound values SQLite allowed before 3.32.
    private static let rowsPerInsert = 71

    /// An INSERT of `rows` messages.
    private static func insertSQL(rows: Int) -> String {
        let values = Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: rows)
        return """
            INSERT INTO message (conversation_id, role, content, state, reasoning, model, system_prompt, settings,
                prompt_tokens, completion_tokens, total_tokens, created_at, updated_at, images)
            VALUES \(values.joined(separator: ", "))
            """
    }

    /// `settings` as the `settings` column holds it.
    static func json(_ settings: StoredSettingsDTO) -> String {
        settings.jsonBytes.map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    public func update(_ message: ChatMessage, id: Int64) async {
        _ = await write { db throws(StorageError) -> Bool in
            try Self.update(message, id: id, db)
            return true
        }
    }

    /// Replaces a stored message's text, state, reasoning and usage, as `update` does.
    static func update(_ message: ChatMessage, id: Int64, _ db: SQLiteConnection) throws(StorageError) {
        let now = Self.now()
        try db.run(
            """
            UPDATE message SET content = ?, state = ?, reasoning = ?, prompt_tokens = ?,
                completion_tokens = ?, total_tokens = ?, updated_at = ? WHERE id = ?
            """,
            [
                message.content, message.state.rawValue, message.reasoning, message.usage?.promptTokens,
                message.usage?.completionTokens, message.usage?.totalTokens, now, id,
            ])
        let conversation = try db.firstRow("SELECT conversation_id FROM message WHERE id = ?", [id]) {
            row throws(StorageError) in try row.column(0, as: String.self)
        }
        if let conversation { try Self.touch(db, conversation, now) }
    }

    public func remove(ids: [Int64]) async {
        guard !ids.isEmpty else { return }
        _ = await write { db throws(StorageError) -> Bool in
            for id in ids { try db.run("DELETE FROM message WHERE id = ?", [id]) }
            return true
        }
    }

    public func recordAnswer(to conversationID: String, settings: ChatSettings, systemPrompt: String?)
        -> any AnswerRecording
    {
        CheckpointedAnswerRecording(
            store: self, conversationID: conversationID, settings: settings, systemPrompt: systemPrompt,
            interval: checkpointInterval)
    }

    // MARK: - ConversationHistory

    public func list(limit: Int?, includingUnanswered: Bool) async -> Result<ConversationListing, StorageError> {
        await read { db throws(StorageError) in
            try Self.listing(db, where: "1", arguments: [], limit: limit, includingUnanswered: includingUnanswered)
        }
    }

    public func search(_ text: String, limit: Int?, includingUnanswered: Bool) async
        -> Result<ConversationListing, StorageError>
    {
        let words = text.split(whereSeparator: \.isWhitespace).map {
            "\"" + $0.replacingOccurrences("\"", "\"\"") + "\""
        }
        guard !words.isEmpty else { return .success(ConversationListing(summaries: [])) }
        let query = words.joined(separator: " ")
        // The title matches the text anywhere in it; LIKE's wildcards in the text are plain characters.
        var pattern = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
            pattern.append(character)
        }
        let like = "%" + pattern + "%"
        if case .failure(let error) = await catchUpSearchIndex() { return .failure(error) }
        return await read { db throws(StorageError) in
            var listing = try Self.listing(
                db,
                where: """
                    (c.id IN (SELECT m.conversation_id FROM message_fts JOIN message m ON m.id = message_fts.rowid
                              WHERE message_fts MATCH ?) OR c.title LIKE ? ESCAPE '\\')
                    """,
                arguments: [query, like], limit: limit, includingUnanswered: includingUnanswered)
            for index in listing.summaries.indices {
                listing.summaries[index].snippet = try Self.snippet(db, query: query, in: listing.summaries[index].id)
            }
            return listing
        }
    }

    /// Indexes the messages stored since the last search (`SearchIndex`); a write only when
    /// there are some.
    private func catchUpSearchIndex() async -> Result<Void, StorageError> {
        await onQueue {
            switch self.transactionNow(writing: false, SearchIndex.isBehind) {
            case .success(false): return .success(())
            case .success(true): return self.transactionNow(writing: true, SearchIndex.catchUp)
            case .failure(let error): return .failure(error)
            }
        }
    }

    public func mostRecentlyUsed(answeredOnly: Bool) async -> Result<Conversation?, StorageError> {
        await read { db throws(StorageError) -> Conversation? in
            let condition = answeredOnly ? "WHERE \(Self.answered)" : ""
            let id = try db.firstRow("SELECT id FROM conversation c \(condition) ORDER BY updated_at DESC LIMIT 1") {
                row throws(StorageError) in try row.column(0, as: String.self)
            }
            guard let id else { return nil }
            return try Self.conversation(db, id: id)
        }
    }

    public func load(_ id: String) async -> Result<Conversation, StorageError> {
        await read { db throws(StorageError) in try Self.conversation(db, id: try Self.resolve(db, id)) }
    }

    public func delete(_ id: String) async -> Result<ConversationSummary, StorageError> {
        await writeResult { db throws(StorageError) in
            let full = try Self.resolve(db, id)
            let summary = try Self.summaries(db, where: "c.id = ?", arguments: [full], limit: 1)
            try db.run("DELETE FROM message WHERE conversation_id = ?", [full])
            try db.run("DELETE FROM conversation WHERE id = ?", [full])
            guard let first = summary.first else { throw StorageError.notFound(id: id) }
            return first
        }
    }

    public func rename(_ id: String, title: String) async -> Result<Void, StorageError> {
        await writeResult { db throws(StorageError) in
            let full = try Self.resolve(db, id)
            try db.run("UPDATE conversation SET title = ? WHERE id = ?", [title, full])
        }
    }

    // MARK: - Pieces

    /// Whether conversation `c` has an answer (an assistant message, whole or partial).
    private static let answered = "EXISTS (SELECT 1 FROM message WHERE conversation_id = c.id AND role = 'assistant')"

    /// The conversations that meet `condition`, at most `limit`, and what was left out.
    private static func listing(
        _ db: SQLiteConnection, where condition: String, arguments: [any SQLiteValue], limit: Int?,
        includingUnanswered: Bool
    ) throws(StorageError) -> ConversationListing {
        let shown = includingUnanswered ? condition : "\(condition) AND \(answered)"
        let summaries = try Self.summaries(db, where: shown, arguments: arguments, limit: limit)
        var beyondLimit = 0
        if let limit, summaries.count == limit {
            beyondLimit = try count(db, where: shown, arguments: arguments) - limit
        }
        let unanswered =
            includingUnanswered ? 0 : try count(db, where: "\(condition) AND NOT \(answered)", arguments: arguments)
        return ConversationListing(summaries: summaries, unansweredLeftOut: unanswered, beyondLimit: beyondLimit)
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
        return text.map(Self.snippet(marked:))
    }

    /// The snippet in `text`, whose matches SQLite put between \u{1} and \u{2}, on one line.
    static func snippet(marked text: String) -> MatchSnippet {
        var parts: [MatchSnippet.Part] = []
        var current = ""
        var inMatch = false
        var lastWasSpace = false
        func flush() {
            if !current.isEmpty { parts.append(MatchSnippet.Part(current, isMatch: inMatch)) }
            current = ""
        }
        for character in text {
            switch character {
            case "\u{1}":
                flush()
                inMatch = true
            case "\u{2}":
                flush()
                inMatch = false
            case _ where character.isWhitespace || (character.asciiValue ?? 32) < 32:
                if !lastWasSpace { current.append(" ") }
                lastWasSpace = true
                continue
            default:
                current.append(character)
            }
            lastWasSpace = false
        }
        flush()
        return MatchSnippet(parts)
    }

    private static func summaries(
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

    private static func conversation(_ db: SQLiteConnection, id: String) throws(StorageError) -> Conversation {
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
        // The settings of the newest message that has them (rows stored before have none); ones
        // that cannot be read are left out, not the conversation.
        var settings = ChatSettings(model: model)
        if let storedSettings, let stored = StoredSettingsDTO(jsonBytes: Array(storedSettings.utf8)) {
            settings = stored.applied(to: settings)
        }
        return Conversation(
            systemPrompt: systemPrompt, settings: settings, messages: messages, id: id,
            title: title.isEmpty ? nil : title)
    }

    /// The one full id that starts with `prefix`.
    private static func resolve(_ db: SQLiteConnection, _ prefix: String) throws(StorageError) -> String {
        let pattern = prefix.lowercased().filter { $0.isLetter || $0.isNumber }
        guard !pattern.isEmpty else { throw StorageError.notFound(id: prefix) }
        let matches = try db.rows(
            "SELECT id FROM conversation WHERE id LIKE ? ORDER BY updated_at DESC LIMIT 6", [pattern + "%"]
        ) { row throws(StorageError) in try row.column(0, as: String.self) }
        guard let first = matches.first else { throw StorageError.notFound(id: prefix) }
        guard matches.count == 1 else { throw StorageError.ambiguous(id: prefix, matches: matches) }
        return first
    }

    private static func touch(_ db: SQLiteConnection, _ id: String, _ now: Double) throws(StorageError) {
        try db.run("UPDATE conversation SET updated_at = ? WHERE id = ?", [now, id])
    }

    /// The first words of a message's first paragraph, on one line: what was typed, not the
    /// files attached after it (a blank line apart) or a piped text after the prompt.
    static func title(from text: String) -> String {
        // Line by line rather than a regex: a regex here cost every stored question the runtime
        // regex parser (about 0.6 M instructions and 0.5 MiB of resident code).
        var words: [Substring] = []
        for line in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false) {
            let lineWords = Substring(line).split(whereSeparator: \.isWhitespace)
            if lineWords.isEmpty {
                if words.isEmpty { continue } else { break }  // a blank line ends the paragraph
            }
            words += lineWords
            if words.count >= 8 { break }
        }
        let title = words.prefix(8).joined(separator: " ")
        return title.count > 60 ? String(title.prefix(59)) + "…" : title
    }

    /// Eight random base-36 digits: the low ones of one random 64-bit number (one getrandom(2)
    /// call, not one per digit). 36⁸ is below 2⁶⁴, so they are all but uniform (a bias under 10⁻⁶).
    static func newID() -> String {
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)
        var generator = SystemRandomNumberGenerator()
        var bits = generator.next()
        var digits: [UInt8] = []
        digits.reserveCapacity(8)
        for _ in 0..<8 {
            digits.append(alphabet[Int(bits % 36)])
            bits /= 36
        }
        return String(decoding: digits, as: UTF8.self)
    }

    static func now() -> Double {
        HTTPDate.now()
    }

    /// The text of an error met while opening or writing the history: a `.database` error's
    /// message (no other kind arises there).
    private static func reason(_ error: StorageError) -> String {
        if case .database(let message) = error { return message }
        return String(describing: error)
    }

    // MARK: - The queue

    /// Runs `body` on the store's queue and waits for it without holding a thread.
    private func onQueue<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }

    /// Runs `body` on the store's queue after `delay`, without waiting for it.
    func later(_ delay: Duration, _ body: @escaping @Sendable () -> Void) {
        let components = delay.components
        let nanoseconds = Int(components.seconds) * 1_000_000_000 + Int(components.attoseconds / 1_000_000_000)
        queue.asyncAfter(deadline: .now() + .nanoseconds(max(nanoseconds, 0)), execute: body)
    }

    /// Runs `body` on the store's queue and waits for its value (nil when the write failed,
    /// which `report` heard about once).
    func onQueueWriting<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws(StorageError) -> T) async
        -> T?
    {
        await onQueue { self.writeNow(body) }
    }

    /// On the queue: `body` in a write transaction; a failure is reported (once) and gives nil.
    func writeNow<T: Sendable>(_ body: (SQLiteConnection) throws(StorageError) -> T) -> T? {
        switch transactionNow(writing: true, body) {
        case .success(let value): return value
        case .failure(let error):
            let first = reported.withLock { reported in
                defer { reported = true }
                return !reported
            }
            guard first else { return nil }
            if connection.openingError != nil {
                report("history: \(Self.reason(error)); this conversation will not be stored")
            } else {
                report("history: could not save (history: \(Self.reason(error))); the conversation goes on unsaved")
            }
            return nil
        }
    }

    private func write<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws(StorageError) -> T) async
        -> T?
    {
        await onQueueWriting(body)
    }

    private func writeResult<T: Sendable>(
        _ body: @escaping @Sendable (SQLiteConnection) throws(StorageError) -> T
    ) async -> Result<T, StorageError> {
        await onQueue { self.transactionNow(writing: true, body) }
    }

    private func read<T: Sendable>(
        _ body: @escaping @Sendable (SQLiteConnection) throws(StorageError) -> T
    ) async -> Result<T, StorageError> {
        await onQueue { self.transactionNow(writing: false, body) }
    }

    /// On the queue: `body` in a transaction of its own.
    private func transactionNow<T>(
        writing: Bool, _ body: (SQLiteConnection) throws(StorageError) -> T
    ) -> Result<T, StorageError> {
        if let error = connection.openingError { return .failure(error) }
        return Result { () throws(StorageError) -> T in
            guard let db = connection.database else { throw StorageError.database("the history is not open") }
            return try db.transaction(writing: writing) { () throws(StorageError) -> T in try body(db) }
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

/// `open(2)` of the lock file, read-write, created private to its owner; `SQLiteConversationStore.open`
/// hides the C function inside the class.
private func openLockFile(_ path: String) -> Int32 {
    open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
}
