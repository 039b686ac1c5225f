/// The word a `RowWriter` is receiving, held until it ends (whether it fits its row is known only
/// then): its bytes, the styled runs they fall in, and its width in cells so far.
struct HeldWord {
    private struct Run {
        var end: Int
        var style: TextStyle
        var link: String?
    }

    /// Its UTF-8 bytes (whole scalars).
    private(set) var bytes: [UInt8] = []
    /// Its cells.
    private(set) var width = 0
    private var runs: [Run] = []
    private var counter = WidthCounter()

    var isEmpty: Bool { bytes.isEmpty }
    var count: Int { bytes.count }

    /// Adds `more` in `style`, inside the hyperlink `link`.
    mutating func append(_ more: ArraySlice<UInt8>, _ style: TextStyle, link: String?) {
        if bytes.isEmpty { counter = WidthCounter() }
        bytes.append(contentsOf: more)
        width += counter.add(more)
        if let last = runs.last, last.style == style, last.link == link {
            runs[runs.count - 1].end = bytes.count
        } else {
            runs.append(Run(end: bytes.count, style: style, link: link))
        }
    }

    /// Drops its first `count` bytes, `cells` wide (written on a row of their own).
    mutating func removeFirst(_ count: Int, cells: Int) {
        bytes.removeFirst(count)
        runs = runs.compactMap { run in
            run.end > count ? Run(end: run.end - count, style: run.style, link: run.link) : nil
        }
        width -= cells
        counter = WidthCounter()
        _ = counter.add(bytes[...])
    }

    /// Forgets it: the word has been placed.
    mutating func removeAll() {
        // Most words are placed without being held: nothing to remove then.
        guard !bytes.isEmpty || !runs.isEmpty else {
            width = 0
            return
        }
        bytes.removeAll(keepingCapacity: true)
        runs.removeAll(keepingCapacity: true)
        width = 0
    }

    /// Writes its bytes `start..<end`, each in its own style, to `output`.
    func write(from start: Int, upTo end: Int, to output: inout RowOutput, tentative: Bool = false) {
        var runStart = 0
        for run in runs {
            let lower = max(runStart, start)
            let upper = min(run.end, end)
            if upper > lower { output.put(bytes[lower..<upper], run.style, link: run.link, tentative: tentative) }
            runStart = run.end
            if runStart >= end { break }
        }
    }
}
