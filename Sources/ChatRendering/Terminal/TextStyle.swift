/// How a run of rendered text looks: attributes and a foreground colour. `MarkdownTheme` turns
/// it into an SGR sequence.
struct TextStyle: Hashable, Sendable {
    /// Attribute bits.
    var attributes: UInt8 = 0
    /// A foreground colour as its SGR code (31 red … 97 bright white); 0 for the default.
    var colour: UInt8 = 0

    static let bold: UInt8 = 1
    static let dim: UInt8 = 2
    static let italic: UInt8 = 4
    static let underline: UInt8 = 8
    static let strike: UInt8 = 16

    /// No attribute, the default colour.
    static let plain = TextStyle()

    init(attributes: UInt8 = 0, colour: UInt8 = 0) {
        self.attributes = attributes
        self.colour = colour
    }

    /// This style with `attributes` added, and `colour` when it is not the default.
    func adding(_ attributes: UInt8, colour: UInt8 = 0) -> TextStyle {
        TextStyle(attributes: self.attributes | attributes, colour: colour == 0 ? self.colour : colour)
    }
}
