import ChatDomain

/// The history's tables, with a migration per schema version so later releases can change it.
/// The version is SQLite's `PRAGMA user_version`: how many of `migrations` the database has.
enum HistorySchema {
    /// In order; never edit one that has shipped, add the next. The identifiers are the names
    /// the GRDB-based releases recorded in their `grdb_migrations` table.
    static let migrations: [(identifier: String, sql: String)] = [
        (
            "v1-conversations",
            """
            CREATE TABLE conversation (
                id TEXT PRIMARY KEY NOT NULL,
                title TEXT NOT NULL DEFAULT '',
                created_at REAL NOT NULL,
                updated_at REAL NOT NULL
            );
            CREATE INDEX conversation_updated ON conversation(updated_at);
            CREATE TABLE message (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                conversation_id TEXT NOT NULL REFERENCES conversation(id) ON DELETE CASCADE,
                role TEXT NOT NULL,
                content TEXT NOT NULL,
                state TEXT NOT NULL,
                reasoning TEXT,
                model TEXT NOT NULL,
                system_prompt TEXT,
                prompt_tokens INTEGER,
                completion_tokens INTEGER,
                total_tokens INTEGER,
                created_at REAL NOT NULL,
                updated_at REAL NOT NULL
            );
            CREATE INDEX message_conversation ON message(conversation_id, id);
            """
        ),
        (
            // Full-text search over both sides, kept in step with the messages by triggers (v5
            // defers the indexing of new messages to the next search).
            "v2-search",
            """
            CREATE VIRTUAL TABLE message_fts USING fts5(content, content='message', content_rowid='id');
            INSERT INTO message_fts(message_fts) VALUES ('rebuild');
            CREATE TRIGGER message_fts_insert AFTER INSERT ON message BEGIN
                INSERT INTO message_fts(rowid, content) VALUES (new.id, new.content);
            END;
            CREATE TRIGGER message_fts_delete AFTER DELETE ON message BEGIN
                INSERT INTO message_fts(message_fts, rowid, content) VALUES ('delete', old.id, old.content);
            END;
            CREATE TRIGGER message_fts_update AFTER UPDATE OF content ON message BEGIN
                INSERT INTO message_fts(message_fts, rowid, content) VALUES ('delete', old.id, old.content);
                INSERT INTO message_fts(rowid, content) VALUES (new.id, new.content);
            END;
            """
        ),
        (
            // The conversation's sampling settings with each message: a StoredSettingsDTO as JSON
            // (`{}` when none is set); NULL in the rows stored before.
            "v3-settings",
            "ALTER TABLE message ADD COLUMN settings TEXT;"
        ),
        (
            // The images sent with a message, as a JSON array of StoredImageDTO (path, type,
            // size, SHA-256; never the bytes); NULL when it has none.
            "v4-images",
            "ALTER TABLE message ADD COLUMN images TEXT;"
        ),
        (
            // Full-text indexing deferred to the next search (`SearchIndex.catchUp`): storing a
            // message no longer indexes it. The messages up to `indexed_through` (a rowid;
            // AUTOINCREMENT never hands out a lower one again) are indexed, none after; so an
            // update or delete touches the index only for those.
            "v5-deferred-search",
            """
            DROP TRIGGER IF EXISTS message_fts_insert;
            DROP TRIGGER IF EXISTS message_fts_delete;
            DROP TRIGGER IF EXISTS message_fts_update;
            CREATE TABLE message_fts_progress (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                indexed_through INTEGER NOT NULL
            );
            INSERT INTO message_fts_progress (id, indexed_through) SELECT 1, IFNULL(MAX(id), 0) FROM message;
            CREATE TRIGGER message_fts_delete AFTER DELETE ON message
            WHEN old.id <= (SELECT indexed_through FROM message_fts_progress) BEGIN
                INSERT INTO message_fts(message_fts, rowid, content) VALUES ('delete', old.id, old.content);
            END;
            CREATE TRIGGER message_fts_update AFTER UPDATE OF content ON message
            WHEN old.id <= (SELECT indexed_through FROM message_fts_progress) BEGIN
                INSERT INTO message_fts(message_fts, rowid, content) VALUES ('delete', old.id, old.content);
                INSERT INTO message_fts(rowid, content) VALUES (new.id, new.content);
            END;
            """
        ),
        (
            // Branches. Each message names the one it follows (`parent_id`; 0 for the first of
            // its branch; NULL in a row an older release added since: the one before it). The
            // messages that follow one another from a first message form a branch; a message
            // with siblings (an answer `/retry` replaced, a question `/edit` asked again) starts
            // one branch each. A conversation shows the branch that ends at `head_id`, says
            // whether it ever branched (`branched`: one that never did shows every message, and
            // is listed without walking its branch), and names the conversation it branched off
            // (`/fork`), the message there and its turn.
            "v6-branches",
            """
            ALTER TABLE message ADD COLUMN parent_id INTEGER;
            ALTER TABLE conversation ADD COLUMN head_id INTEGER;
            ALTER TABLE conversation ADD COLUMN branched INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE conversation ADD COLUMN parent_id TEXT;
            ALTER TABLE conversation ADD COLUMN branched_from INTEGER;
            ALTER TABLE conversation ADD COLUMN branch_turn INTEGER;
            UPDATE message SET parent_id = IFNULL(
                (SELECT MAX(p.id) FROM message p WHERE p.conversation_id = message.conversation_id AND p.id < message.id),
                0);
            UPDATE conversation SET head_id = (SELECT MAX(id) FROM message WHERE conversation_id = conversation.id);
            """
        ),
        (
            // Whether a conversation has an answer (an assistant message, on any branch), set
            // by the statement that stores its messages' batch (`MessageRows.insert`; a trigger
            // per row cost a `/load` of 1,000 turns 16 M instructions) and cleared by a trigger
            // when its last answer is removed; indexed with the time of use: `--list` and `-c`
            // count and find answered conversations without reading the messages of each
            // (100,000 conversations: docs/PERFORMANCE.md, round 15).
            "v7-answered",
            """
            ALTER TABLE conversation ADD COLUMN answered INTEGER NOT NULL DEFAULT 0;
            UPDATE conversation SET answered = EXISTS (
                SELECT 1 FROM message WHERE conversation_id = conversation.id AND role = 'assistant');
            CREATE INDEX conversation_answered ON conversation(answered, updated_at);
            CREATE TRIGGER message_answered_delete AFTER DELETE ON message WHEN old.role = 'assistant' BEGIN
                UPDATE conversation SET answered = EXISTS (
                    SELECT 1 FROM message WHERE conversation_id = old.conversation_id AND role = 'assistant')
                WHERE id = old.conversation_id;
            END;
            """
        ),
        (
            // Tool rounds: a message with parts its text and images do not say (an answer's tool
            // calls, a `tool` message's results; later kinds of part too) keeps every part, in
            // order, as a JSON array of StoredPartDTO (`type` and that type's fields; a result's
            // images as the `images` column keeps them); NULL for every other message. `content`
            // still holds the text (an answer's tool calls as a line each, for the search index;
            // a `tool` message's results are not in it), which older releases read.
            "v8-parts",
            "ALTER TABLE message ADD COLUMN parts TEXT;"
        ),
        (
            // What each answer cost, in US dollars, by the prices chat knew when it was given
            // (NULL: not known); and the answers indexed by time with all `--stats` adds up, so
            // that it reads the index alone, never the messages' text (at 100,000
            // conversations, every day: 0.43 s against 0.98 s reading the rows).
            "v9-cost",
            """
            ALTER TABLE message ADD COLUMN cost_usd REAL;
            CREATE INDEX message_spending ON message(
                created_at, model, json_extract(settings, '$.provider'), prompt_tokens, completion_tokens, cost_usd)
                WHERE role = 'assistant';
            """
        ),
        (
            // Compactions: a summary the model wrote of a conversation's messages up to and
            // including `through_id`, which requests carry in their place from then on (the
            // messages stay). A branch shows the newest compaction of a message on it. What the
            // summary cost is kept as an answer's is, for `--stats`.
            "v10-compaction",
            """
            CREATE TABLE compaction (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                conversation_id TEXT NOT NULL REFERENCES conversation(id) ON DELETE CASCADE,
                through_id INTEGER NOT NULL,
                summary TEXT NOT NULL,
                model TEXT NOT NULL,
                provider TEXT,
                prompt_tokens INTEGER,
                completion_tokens INTEGER,
                cost_usd REAL,
                created_at REAL NOT NULL
            );
            CREATE INDEX compaction_conversation ON compaction(conversation_id, through_id);
            CREATE INDEX compaction_time ON compaction(created_at);
            """
        ),
        (
            // An answer another profile gave (`fallback`): that profile's name (its model is the
            // row's `model`; a conversation is continued with the model of its newest row that
            // has none); and an answer whose stream broke and was resumed where it stopped (1).
            "v11-fallback",
            """
            ALTER TABLE message ADD COLUMN answered_by TEXT;
            ALTER TABLE message ADD COLUMN resumed INTEGER;
            """
        ),
        (
            // The bytes of the images and PDFs fetched from URLs (a file on disk is read again
            // from its path), which `-c` sends again without fetching: the `images` column
            // marks them `fetched` and names them by SHA-256. A table of their own, keyed by
            // it, not a column of `message`: a file fetched again (each `/retry`, `/edit`,
            // `/fork` or `/load` copies the message) is stored once, the message rows the
            // listings and the search scan stay small, and rows no message names any more are
            // removed with the conversations and messages that named them (`FetchedFiles`).
            "v12-fetched-files",
            """
            CREATE TABLE fetched_file (
                sha256 TEXT PRIMARY KEY NOT NULL,
                bytes BLOB NOT NULL
            );
            """
        ),
        (
            // `--stats` by UTC day: v9's index put the answers in time order, so adding them up
            // by day, model and provider sorted every answer first (at 100,000 conversations,
            // every day: 383 ms). Indexed by day, model and provider, they come in the groups'
            // order (130-160 ms); `created_at` stays in it for the part of the first day `--since`
            // leaves out.
            "v13-spending-by-day",
            """
            DROP INDEX message_spending;
            CREATE INDEX message_spending_day ON message(
                CAST(created_at / 86400 AS INTEGER), model, json_extract(settings, '$.provider'), created_at,
                prompt_tokens, completion_tokens, cost_usd)
                WHERE role = 'assistant';
            """
        ),
    ]

    /// Brings `database` up to the last version, in one transaction; returns whether it had to.
    /// A database a newer release migrated further is left as it is.
    @discardableResult
    static func migrate(_ database: SQLiteConnection) throws(StorageError) -> Bool {
        // The usual case, up to date, needs no write lock.
        guard try userVersion(database) < migrations.count else { return false }
        try database.transaction(writing: true) { () throws(StorageError) in
            let stored = try userVersion(database)
            let version = stored == 0 ? try grdbVersion(database) : stored
            guard version >= 0 else { throw StorageError.unexpected("unknown history schema version \(version)") }
            for migration in migrations.dropFirst(version) { try database.execute(migration.sql) }
            let reached = max(version, migrations.count)
            if reached != stored { try database.execute("PRAGMA user_version = \(reached)") }
        }
        return true
    }

    private static func userVersion(_ database: SQLiteConnection) throws(StorageError) -> Int {
        try database.firstRow("PRAGMA user_version") { row throws(StorageError) in try row.column(0, as: Int.self) }
            ?? 0
    }

    /// The version of a database the GRDB-based releases made: they left `user_version` at 0
    /// and named the migrations they applied, in order, in `grdb_migrations`. 0 when there is
    /// no such table. The table stays, so those releases can still open the database.
    private static func grdbVersion(_ database: SQLiteConnection) throws(StorageError) -> Int {
        let table = try database.firstRow(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'grdb_migrations'"
        ) { _ throws(StorageError) in true }
        guard table != nil else { return 0 }
        let applied = Set(
            try database.rows("SELECT identifier FROM grdb_migrations") { row throws(StorageError) in
                try row.column(0, as: String.self)
            })
        return migrations.prefix { applied.contains($0.identifier) }.count
    }
}
