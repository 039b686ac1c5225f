/// The SGR sequences a `RowOutput` writes, each made from the theme once it is first needed: the
/// full one, and the one from no style. A few styles are used, so a list searched in order
/// beats hashing.
struct SGRSequences {
    /// Back to no style: `ESC[m`.
    static let plain = Array("\u{1B}[m".utf8)

    let theme: MarkdownTheme
    private var made: [(style: TextStyle, full: [UInt8], fromPlain: [UInt8])] = []

    init(theme: MarkdownTheme) {
        self.theme = theme
    }

    /// The theme's whole sequence for `style` (it starts from no style: `ESC[0;1m`).
    mutating func full(_ style: TextStyle) -> [UInt8] {
        made[index(of: style)].full
    }

    /// The shortest sequence from `previous` to `style`: from no style, the new attributes alone
    /// (`ESC[1m`, not `ESC[0;1m`); to no style, `ESC[m`. Nothing without escapes.
    mutating func change(to style: TextStyle, from previous: TextStyle) -> [UInt8] {
        guard theme.escapes else { return [] }
        if style == .plain { return Self.plain }
        let index = index(of: style)
        return previous == .plain ? made[index].fromPlain : made[index].full
    }

    private mutating func index(of style: TextStyle) -> Int {
        for index in made.indices where made[index].style == style { return index }
        let full = theme.sgr(style)
        var fromPlain = full
        if fromPlain.count > 4 { fromPlain.removeSubrange(2..<4) }  // "0;"
        made.append((style, full, fromPlain))
        return made.count - 1
    }
}
