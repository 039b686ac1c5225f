/// How text is decorated on one output: ANSI colour on a terminal, nothing otherwise.
public struct TerminalStyle: Sendable {
    /// Whether escape codes may be written.
    public var colour: Bool

    /// Colour only for a terminal, and never when `NO_COLOR` is set or `TERM` is `dumb`.
    public init(isTerminal: Bool, environment: [String: String]) {
        let noColour = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        colour = isTerminal && !noColour && environment["TERM"] != "dumb"
    }

    /// A style that never writes escape codes.
    public static let plain = TerminalStyle(colour: false)

    private init(colour: Bool) {
        self.colour = colour
    }

    /// Dimmed text, for reasoning.
    public func dim(_ text: String) -> String { wrap(text, "2") }
    /// The tool's own notes.
    public func note(_ text: String) -> String { wrap(text, "36") }
    /// Errors.
    public func error(_ text: String) -> String { wrap(text, "31") }
    /// Warnings.
    public func warning(_ text: String) -> String { wrap(text, "33") }
    /// Emphasis, e.g. the prompt.
    public func bold(_ text: String) -> String { wrap(text, "1") }
    /// Words a search matched.
    public func match(_ text: String) -> String { wrap(text, "1;33") }

    private func wrap(_ text: String, _ code: String) -> String {
        colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
