/// The look of rendered answers: which style each part of Markdown and each kind of code token
/// gets, and how a style is written. Uses the 16 basic colours, which every terminal has and
/// every theme adapts. With `colour` off (NO_COLOR) attributes such as bold remain; with
/// `escapes` off (not a terminal, or TERM=dumb) nothing but text is written.
package struct MarkdownTheme: Sendable {
    /// Whether any escape sequence may be written.
    package var escapes: Bool
    /// Whether colours may be written (attributes may be, when `escapes` is on).
    var colour: Bool
    /// Whether links are written as OSC 8 hyperlinks (their URL is printed after them anyway).
    package var hyperlinks: Bool

    /// A theme that writes escape sequences (`escapes`), colours and hyperlinks as allowed.
    package init(escapes: Bool, colour: Bool, hyperlinks: Bool) {
        self.escapes = escapes
        self.colour = colour && escapes
        self.hyperlinks = hyperlinks && escapes
    }

    /// Text only.
    static let plain = MarkdownTheme(escapes: false, colour: false, hyperlinks: false)

    // MARK: Markdown

    func heading(_ level: Int) -> TextStyle {
        switch level {
        case 1: return TextStyle(attributes: TextStyle.bold | TextStyle.underline, colour: 35)
        case 2: return TextStyle(attributes: TextStyle.bold, colour: 35)
        case 3: return TextStyle(attributes: TextStyle.bold, colour: 36)
        default: return TextStyle(attributes: TextStyle.bold)
        }
    }

    let inlineCode = TextStyle(colour: 36)
    let link = TextStyle(attributes: TextStyle.underline, colour: 34)
    let url = TextStyle(attributes: TextStyle.dim)
    let rule = TextStyle(attributes: TextStyle.dim)
    let quoteBar = TextStyle(attributes: TextStyle.dim)
    let quoteText = TextStyle(attributes: TextStyle.italic)
    let bullet = TextStyle(colour: 33)
    let tableBorder = TextStyle(attributes: TextStyle.dim)
    let tableHeader = TextStyle(attributes: TextStyle.bold)
    let codeFrame = TextStyle(attributes: TextStyle.dim)
    let codeLanguage = TextStyle(attributes: TextStyle.bold, colour: 33)
    let preview = TextStyle(attributes: TextStyle.dim)

    // MARK: Code

    func token(_ kind: CodeToken) -> TextStyle {
        switch kind {
        case .plain: return .plain
        case .keyword: return TextStyle(colour: 35)
        case .type: return TextStyle(colour: 36)
        case .string: return TextStyle(colour: 32)
        case .number, .literal: return TextStyle(colour: 33)
        case .comment: return TextStyle(attributes: TextStyle.italic, colour: 90)
        case .attribute: return TextStyle(colour: 34)
        case .variable: return TextStyle(colour: 36)
        case .inserted: return TextStyle(colour: 32)
        case .deleted: return TextStyle(colour: 31)
        case .meta: return TextStyle(attributes: TextStyle.bold, colour: 36)
        }
    }

    // MARK: Writing

    /// The SGR sequence that sets exactly `style` (resetting everything else); empty when
    /// escapes are off.
    func sgr(_ style: TextStyle) -> [UInt8] {
        guard escapes else { return [] }
        var text = "\u{1B}[0"
        let a = style.attributes
        if a & TextStyle.bold != 0 { text += ";1" }
        if a & TextStyle.dim != 0 { text += ";2" }
        if a & TextStyle.italic != 0 { text += ";3" }
        if a & TextStyle.underline != 0 { text += ";4" }
        if a & TextStyle.strike != 0 { text += ";9" }
        if colour && style.colour != 0 { text += ";\(style.colour)" }
        text += "m"
        return Array(text.utf8)
    }

    /// The reset sequence, or nothing.
    package var reset: [UInt8] { escapes ? Self.resetBytes : [] }

    private static let resetBytes = Array("\u{1B}[0m".utf8)

    /// Opens an OSC 8 hyperlink to `url` (already checked by `Hyperlink.safeURL`).
    func openLink(_ url: String) -> [UInt8] {
        Array("\u{1B}]8;;\(url)\u{1B}\\".utf8)
    }

    /// Closes an OSC 8 hyperlink.
    package var closeLink: [UInt8] { Self.closeLinkBytes }

    private static let closeLinkBytes = Array("\u{1B}]8;;\u{1B}\\".utf8)
}
