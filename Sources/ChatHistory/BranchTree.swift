import ChatDomain

/// The messages of one conversation as the branches they form: each message follows the one
/// its `parent_id` names (0: it is the first of its branch; NULL: a row an older release added,
/// which follows the one before it). The conversation shows the branch that ends at its head.
struct BranchTree {
    /// Message ids, oldest first.
    private(set) var ids: [Int64] = []
    private let known: Set<Int64>
    private var parents: [Int64: Int64] = [:]
    /// Whether an older release added messages past the stored head (without naming parents).
    private var newestIsUnnamed = false

    /// The tree of `rows` (id and `parent_id`), oldest first.
    init(_ rows: [(id: Int64, parentID: Int64?)]) {
        let known = Set(rows.map(\.id))
        self.known = known
        var previous: Int64?
        for row in rows {
            ids.append(row.id)
            switch row.parentID {
            case 0?: break
            // A parent that is gone (a salvage could not read it): the message before it.
            case let parent? where known.contains(parent): parents[row.id] = parent
            default: if let previous { parents[row.id] = previous }
            }
            newestIsUnnamed = row.parentID == nil
            previous = row.id
        }
    }

    /// The tree of conversation `conversationID`'s messages.
    static func read(_ conversationID: String, _ db: SQLiteConnection) throws(StorageError) -> BranchTree {
        BranchTree(
            try db.rows("SELECT id, parent_id FROM message WHERE conversation_id = ? ORDER BY id", [conversationID]) {
                row throws(StorageError) in (try row.column(0, as: Int64.self), try row.column(1, as: Int64?.self))
            })
    }

    /// `head(stored:)` in SQL, for conversation `c`: 0 for none.
    static let headSQL = """
        CASE WHEN c.head_id = 0 THEN 0
            WHEN EXISTS (SELECT 1 FROM message WHERE id = c.head_id AND conversation_id = c.id)
                AND (SELECT parent_id FROM message WHERE conversation_id = c.id ORDER BY id DESC LIMIT 1) IS NOT NULL
            THEN c.head_id
            ELSE IFNULL((SELECT MAX(id) FROM message WHERE conversation_id = c.id), 0) END
        """

    /// The message the branch shown ends at: the stored head (0: none yet, before the first
    /// message), or the newest message when there is no head, it is gone, or an older release
    /// added messages after it (`headSQL` says the same in SQL).
    func head(stored: Int64?) -> Int64? {
        if stored == 0 { return nil }
        if let stored, known.contains(stored), !newestIsUnnamed { return stored }
        return ids.last
    }

    /// The message `id` follows, if any.
    func parent(of id: Int64) -> Int64? {
        parents[id]
    }

    /// The branch that ends at `head`, first message first.
    func branch(endingAt head: Int64?) -> [Int64] {
        var branch: [Int64] = []
        var current = head
        while let id = current {
            branch.append(id)
            current = parents[id]
        }
        return branch.reversed()
    }

    /// `id` and every message that follows it, on any branch.
    func descendants(of id: Int64) -> Set<Int64> {
        var found: Set<Int64> = [id]
        // Ids grow: a message comes after the one it follows.
        for other in ids where other > id {
            if let parent = parents[other], found.contains(parent) { found.insert(other) }
        }
        return found
    }

    /// The newest message of the branches through `id`: where showing that branch ends.
    func newest(through id: Int64) -> Int64 {
        descendants(of: id).max() ?? id
    }

    /// The messages that follow the same message as `id` (or, for a first message, the other
    /// first messages), `id` among them, oldest first.
    func siblings(of id: Int64) -> [Int64] {
        let parent = parents[id]
        return ids.filter { parents[$0] == parent }
    }

    /// The nearest message up the branch from `id` that is not in `removed`; nil when none is.
    func nearest(to id: Int64, outside removed: Set<Int64>) -> Int64? {
        var current: Int64? = id
        while let candidate = current, removed.contains(candidate) { current = parents[candidate] }
        return current
    }
}
