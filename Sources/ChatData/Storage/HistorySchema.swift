import GRDB

/// The history's tables, with a migration per schema version so later releases can change it.
enum HistorySchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-conversations") { db in
            try db.execute(
                sql: """
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
                    """)
        }
        migrator.registerMigration("v2-search") { db in
            // Full-text search over both sides, kept in step with the messages by triggers.
            try db.execute(
                sql: """
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
                    """)
        }
        return migrator
    }
}
