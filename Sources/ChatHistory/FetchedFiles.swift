import ChatDomain

/// The bytes of the images and PDFs fetched from URLs, kept in the history's `fetched_file`
/// table by their SHA-256 (schema v12): stored with the messages that carry them, read back
/// for the messages that name them, and removed once no message names them.
enum FetchedFiles {
    /// Keeps the bytes of every fetched file `messages` carry (a file already kept stays as it is).
    static func store(_ messages: some Sequence<ChatMessage>, _ db: SQLiteConnection) throws(StorageError) {
        for image in messages.lazy.flatMap(\.images) where image.fetched {
            guard let bytes = image.data else { continue }
            try db.run(
                "INSERT OR IGNORE INTO fetched_file (sha256, bytes) VALUES (?, ?)",
                [image.sha256, SQLiteStoredValue.blob(bytes)])
        }
    }

    /// The kept bytes of the file with `sha256`, if any.
    static func bytes(_ sha256: String, _ db: SQLiteConnection) -> [UInt8]? {
        let found = try? db.firstRow("SELECT bytes FROM fetched_file WHERE sha256 = ?", [sha256]) {
            row throws(StorageError) in try row.column(0, as: SQLiteStoredValue.self)
        }
        guard case .blob(let bytes)?? = found else { return nil }
        return bytes
    }

    /// Removes the files no stored message names any more (after messages were removed). SQLite
    /// reads the `images` column of the messages that have one only when some file is kept.
    static func removeUnnamed(_ db: SQLiteConnection) throws(StorageError) {
        try db.run(
            """
            DELETE FROM fetched_file WHERE sha256 NOT IN (
                SELECT json_extract(image.value, '$.sha256') FROM message, json_each(message.images) AS image
                WHERE message.images IS NOT NULL AND json_valid(message.images)
                    AND json_extract(image.value, '$.fetched'))
            """)
    }
}
