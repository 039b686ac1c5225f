import ChatCatalogue

/// How an option is written on the command line, and how `--help`, the man page and the shell
/// completions describe it. A setting's flag is declared in its `SettingsTable` row; the
/// command's own options (modes and actions) declare theirs in the executable, with this type.
public struct CommandLineFlag: Sendable {
    /// How a shell completes an option's value.
    public enum Completion: Sendable, Equatable {
        /// Whatever is typed; the shell offers nothing.
        case none
        /// A path.
        case file
        /// One of these words.
        case words([String])
        /// What `chat --completion-values KIND` lists on this machine (profiles, stored
        /// conversations, roles), asked of the `chat` being completed.
        case listed(String)
    }

    /// The long name, without its dashes: `top-p` for `--top-p`.
    public let long: String
    /// The one-letter name, if any: `m` for `-m`.
    public let short: Character?
    /// `--long`, as messages name the option.
    public let longName: String
    /// `-s`, if the option has a short name.
    public let shortName: String?
    /// What the value is called in `--help` (`N`, `URL`); nil for a switch, which takes no value.
    public let valueName: String?
    /// How a shell completes the value.
    public let completion: Completion
    /// Whether each value given is kept (`-f a -f b`), rather than the last one.
    public let repeats: Bool
    /// The help line as declared.
    private let summary: String
    /// The setting's default, which the help line names, if any.
    private let shownDefault: SettingValue?

    /// A flag `--long` (and `-short`) that takes a value called `valueName`, or none when nil.
    public init(
        _ long: String, short: Character? = nil, value valueName: String? = nil, help: String,
        completion: Completion = .none, repeats: Bool = false
    ) {
        self.init(
            long, short: short, value: valueName, help: help, completion: completion, repeats: repeats, default: nil)
    }

    /// A flag whose help line ends with `(default …)` when `shownDefault` is given.
    init(
        _ long: String, short: Character?, value valueName: String?, help: String, completion: Completion,
        repeats: Bool, default shownDefault: SettingValue?
    ) {
        self.long = long
        self.short = short
        longName = "--" + long
        shortName = short.map { "-" + String($0) }
        self.valueName = valueName
        summary = help
        self.completion = completion
        self.repeats = repeats
        self.shownDefault = shownDefault
    }

    /// What the option does, in one line (written when asked for: only `--help`, the man page and
    /// the completion scripts show it).
    public var help: String {
        guard let shown = shownDefault.flatMap(Self.shown) else { return summary }
        return summary + " (default " + shown + ")"
    }

    /// Whether the option takes a value.
    public var takesValue: Bool { valueName != nil }

    /// A default as `--help` shows it: `10`, not `10.0`.
    private static func shown(_ value: SettingValue) -> String? {
        switch value {
        case .text(let text): return text
        case .number(let number): return SettingKind.plain(number)
        case .wholeNumber(let number): return String(number)
        case .boolean, .stringMap, .names: return nil
        }
    }
}
