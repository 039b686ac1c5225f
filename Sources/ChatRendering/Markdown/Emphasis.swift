/// The emphasis open on a line of Markdown text — strong, emphasis, strikethrough, each opened by
/// `*` or `_` — and the rules for a delimiter run: whether it can open or close (by what is on
/// either side of it), and what it opens or closes.
struct Emphasis {
    /// The delimiter that opened strong text, or 0.
    private var bold: UInt8 = 0
    /// The delimiter that opened emphasis, or 0.
    private var italic: UInt8 = 0
    private var strike = false

    /// `base` with the emphasis open added.
    func style(_ base: TextStyle) -> TextStyle {
        var style = base
        if bold != 0 { style.attributes |= TextStyle.bold }
        if italic != 0 { style.attributes |= TextStyle.italic }
        if strike { style.attributes |= TextStyle.strike }
        return style
    }

    /// Takes a run of `run` `delimiter`s (`*`, `_` or `~`) between `previous` and `next`: opens or
    /// closes what it can. Returns how many of them are left, to be shown as text.
    mutating func take(_ delimiter: UInt8, run: Int, previous: CharacterClass, next: CharacterClass) -> Int {
        let left = next != .space && (next != .punctuation || previous == .space || previous == .punctuation)
        let right = previous != .space && (previous != .punctuation || next == .space || next == .punctuation)
        if delimiter == UInt8(ascii: "~") {
            if run == 2 && strike && right {
                strike = false
                return 0
            } else if run == 2 && !strike && left {
                strike = true
                return 0
            }
            return run
        }
        let star = delimiter == UInt8(ascii: "*")
        let canOpen = star ? left : left && (!right || previous == .punctuation)
        let canClose = star ? right : right && (!left || next == .punctuation)
        var remaining = run
        var closed = false
        if canClose {
            if remaining >= 2 && bold == delimiter {
                bold = 0
                remaining -= 2
                closed = true
            }
            if remaining >= 1 && italic == delimiter {
                italic = 0
                remaining -= 1
                closed = true
            }
        }
        if remaining > 0 && canOpen && !closed {
            if remaining >= 3 && bold == 0 && italic == 0 {
                bold = delimiter
                italic = delimiter
                remaining -= 3
            } else if remaining == 2 && bold == 0 {
                bold = delimiter
                remaining = 0
            } else if remaining == 1 && italic == 0 {
                italic = delimiter
                remaining = 0
            }
        }
        return remaining
    }
}
