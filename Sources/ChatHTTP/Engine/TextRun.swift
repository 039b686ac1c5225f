import ChatDomain

/// Joins the adjacent `.text` events that one network read produced into one event.
///
/// Why: a fast server (or a slow reader) puts many chunks in one read, one per token. Yielding
/// each piece on its own cost a wake-up of the consumer and a `write` to stdout per piece, most
/// of a long answer's wall time (docs/PERFORMANCE.md, round 1). The text appears at the same
/// moment either way, since it arrived in the same read; other events keep their place.
struct TextRun {
    private var text = ""

    /// Holds `event` if it is text, else hands on the text so far and then `event`.
    mutating func add(_ event: ChatEvent, _ yield: (ChatEvent) -> Void) {
        if case .text(let piece) = event {
            text += piece
            return
        }
        flush(yield)
        yield(event)
    }

    /// Hands on the text held, if any.
    mutating func flush(_ yield: (ChatEvent) -> Void) {
        guard !text.isEmpty else { return }
        yield(.text(text))
        text = ""
    }
}
