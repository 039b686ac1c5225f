import ChatDomain

extension StorageError {
    /// A failure of the history database that SQLite did not report: one of chat's own checks.
    static func unexpected(_ reason: String) -> StorageError {
        .database(DatabaseFailure(reason: reason))
    }

    /// The database failure this is, if it is one.
    var databaseFailure: DatabaseFailure? {
        if case .database(let failure) = self { return failure }
        return nil
    }
}
