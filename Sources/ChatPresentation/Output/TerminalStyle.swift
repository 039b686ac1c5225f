/// How text is decorated on one output: ANSI colour on a terminal, nothing otherwise.
public struct TerminalStyle: Sendable {
    /// Whether escape codes may be written.
    public var colour: Bool

    /// Colour only for a terminal, and never when `NO_COLOR` is set or `TERM` is `dumb`.
    public init(isTerminal: Bool, environment: [String: String]) {
        colour = Self.takesEscapes(isTerminal: isTerminal, environment: environment) && !Self.noColour(environment)
    }

    /// Whether an output takes escape sequences at all: a terminal, unless `TERM` is `dumb`.
    public static func takesEscapes(isTerminal: Bool, environment: [String: String]) -> Bool {
        isTerminal && environment["TERM"] != "dumb"
    }

    /// Whether `NO_COLOR` (set, not empty) asks for no colour.
    public static func noColour(_ environment: [String: String]) -> Bool {
        environment["NO_COLOR"].map { !$0.isEmpty } ?? false
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
