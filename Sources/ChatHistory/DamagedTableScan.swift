import ChatDomain

/// The rowids of a table in a damaged database that can still be reached, in order: a scan that
/// meets a damaged page looks further and further ahead until a seek works again, then narrows
/// down to the first rowid past the damage that can be reached, and goes on from there.
struct DamagedTableScan {
    private let db: SQLiteConnection
    private let table: String

    /// A scan of `table` (a qualified name, such as `damaged.message`) through `db`.
    init(_ db: SQLiteConnection, table: String) {
        self.db = db
        self.table = table
    }

    /// Every rowid that can be reached, and whether any part of the table could not be read.
    func rowids() -> (ids: [Int64], damaged: Bool) {
        var ids: [Int64] = []
        var damaged = false
        var from = Int64.min
        while true {
            switch scan(from: from, into: &ids) {
            case .finished:
                return (ids, damaged)
            case .failed(let last):
                damaged = true
                // Past the last rowid read, or past `from` itself when not even it could be.
                guard let next = firstReachable(after: max(last, from)) else { return (ids, damaged) }
                from = next
            }
        }
    }

    private enum Outcome {
        case finished
        /// Failed after this rowid (the last read, or the one before where it started).
        case failed(after: Int64)
    }

    /// Reads rowids from `from` on until the end or a damaged page.
    private func scan(from: Int64, into ids: inout [Int64]) -> Outcome {
        var last = from == Int64.min ? Int64.min : from - 1
        do throws(StorageError) {
            let statement = try SQLiteStatement("SELECT rowid FROM \(table) WHERE rowid >= ? ORDER BY rowid", on: db)
            try statement.bind([from])
            while try statement.step() {
                last = try statement.column(0, as: Int64.self)
                ids.append(last)
            }
            return .finished
        } catch {
            return .failed(after: last)
        }
    }

    /// What a seek to the first rowid at or past `rowid` meets.
    private enum Seek {
        case row(Int64)
        case end
        case damaged
    }

    private func seek(_ rowid: Int64) -> Seek {
        do throws(StorageError) {
            let found = try db.firstRow("SELECT rowid FROM \(table) WHERE rowid >= ? ORDER BY rowid LIMIT 1", [rowid]) {
                row throws(StorageError) in try row.column(0, as: Int64.self)
            }
            return found.map(Seek.row) ?? .end
        } catch {
            return .damaged
        }
    }

    /// The first rowid past `last` that a seek reaches beyond the damage, or nil when none does.
    private func firstReachable(after last: Int64) -> Int64? {
        // Further and further ahead until a seek works …
        var failed = last
        var step: Int64 = 1
        var reached: Int64?
        while reached == nil {
            let (probe, overflow) = last.addingReportingOverflow(step)
            if overflow { return nil }
            switch seek(probe) {
            case .damaged:
                failed = probe
                step = step.multipliedReportingOverflow(by: 2).partialValue
                if step <= 0 { return nil }
            case .row, .end:
                reached = probe
            }
        }
        // … then back to the first that works, between the last that failed and it.
        guard var high = reached else { return nil }
        var low = failed
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if case .damaged = seek(middle) { low = middle } else { high = middle }
        }
        if case .row(let next) = seek(high) { return next }
        return nil
    }
}
