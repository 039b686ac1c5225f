/// The name a mistyped one most likely meant: the known name at the smallest edit distance
/// (insertions, deletions, substitutions and swaps of two neighbours; case ignored), if it is
/// close enough to be a slip — at most two edits, and fewer than the typed name has characters.
public enum NearestName {
    /// The closest of `names` to `typed`, or nil when none is close enough.
    public static func to(_ typed: String, among names: some Sequence<String>) -> String? {
        let typed = typed.lowercased()
        var best: (name: String, distance: Int)?
        for name in names {
            let d = distance(typed, name.lowercased())
            if d < (best?.distance ?? Int.max) { best = (name, d) }
        }
        guard let best, best.distance <= 2, best.distance < typed.count else { return nil }
        return best.name
    }

    /// The edit distance between `a` and `b`: the fewest insertions, deletions, substitutions of
    /// characters and swaps of two neighbouring ones (`modles` is one from `models`) that turn one
    /// into the other (Damerau's optimal string alignment).
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
