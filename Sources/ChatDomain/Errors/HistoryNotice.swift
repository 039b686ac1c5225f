/// What the history tells the person while the chat goes on: facts, which Presentation's
/// `ErrorWording` puts into words.
public enum HistoryNotice: Sendable, Equatable {
    /// A write failed (the first time in a run): what is not stored is kept in memory and
    /// stored, in order, at the next write that succeeds.
    case notStored(DatabaseFailure)
    /// The database was damaged: it was set aside and what could still be read was copied into
    /// a new one.
    case salvaged(HistorySalvage)
}

/// What became of a damaged history database.
public struct HistorySalvage: Sendable, Equatable {
    /// Where the damaged file is now (its `-wal` and `-shm` beside it).
    public var damagedPath: String
    /// Conversations copied whole into the new database.
    public var recovered: Int
    /// Conversations of which only a part could be read (that part was copied).
    public var partlyRecovered: Int
    /// Conversations known to have been there of which nothing could be read.
    public var unreadable: Int

    /// The outcome of a salvage.
    public init(damagedPath: String, recovered: Int, partlyRecovered: Int, unreadable: Int) {
        self.damagedPath = damagedPath
        self.recovered = recovered
        self.partlyRecovered = partlyRecovered
        self.unreadable = unreadable
    }
}

/// Messages of this run the history has not managed to store.
public struct UnstoredMessages: Sendable, Equatable {
    /// How many.
    public var count: Int
    /// Why the last try failed.
    public var failure: DatabaseFailure

    /// `count` messages, not stored because of `failure`.
    public init(count: Int, failure: DatabaseFailure) {
        self.count = count
        self.failure = failure
    }
}
