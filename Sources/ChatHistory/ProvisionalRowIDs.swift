/// The row ids stored messages got, by the provisional ids (-1, -2, …) `PendingWrites` gave
/// them: an array indexed by the provisional id, not a dictionary (a `[Int64: Int64]` cost every
/// one-shot the run-time instantiation of its type metadata and of the `Result` holding it,
/// docs/PERFORMANCE.md, round 17).
struct ProvisionalRowIDs {
    /// `rows[-id - 1]`: the row of provisional id `id`; 0 while it has none.
    private var rows: [Int64] = []

    /// The row of provisional id `id`; nil while it has none.
    subscript(id: Int64) -> Int64? {
        let index = Int(-id - 1)
        guard index >= 0, index < rows.count, rows[index] != 0 else { return nil }
        return rows[index]
    }

    /// Records that provisional id `id` (negative) was stored as row `row`.
    mutating func set(_ row: Int64, for id: Int64) {
        let index = Int(-id - 1)
        guard index >= 0 else { return }
        if index >= rows.count { rows.append(contentsOf: repeatElement(0, count: index - rows.count + 1)) }
        rows[index] = row
    }

    /// Takes every row `other` records, over any this one had for the same id.
    mutating func merge(_ other: ProvisionalRowIDs) {
        for index in other.rows.indices where other.rows[index] != 0 {
            set(other.rows[index], for: Int64(-index - 1))
        }
    }
}
