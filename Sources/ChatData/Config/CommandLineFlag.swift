/// How an option is written on the command line, and how `--help`, the man page and the shell
/// completions describe it. A setting's flag is declared in its `SettingsTable` row; the
/// command's own options (modes and actions) declare theirs in the executable, with this type.
public struct CommandLineFlag: Sendable, Equatable {
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
    /// What the value is called in `--help` (`N`, `URL`); nil for a switch, which takes no value.
    public let valueName: String?
    /// What the option does, in one line.
    public let help: String
    /// How a shell completes the value.
    public let completion: Completion
    /// Whether each value given is kept (`-f a -f b`), rather than the last one.
    public let repeats: Bool

    /// A flag `--long` (and `-short`) that takes a value called `valueName`, or none when nil.
    public init(
        _ long: String, short: Character? = nil, value valueName: String? = nil, help: String,
        completion: Completion = .none, repeats: Bool = false
    ) {
        self.long = long
        self.short = short
        self.valueName = valueName
        self.help = help
        self.completion = completion
        self.repeats = repeats
    }

    /// Whether the option takes a value.
    public var takesValue: Bool { valueName != nil }

    /// `--long`, as messages name the option.
    public var longName: String { "--" + long }

    /// `-s`, if the option has a short name.
    public var shortName: String? { short.map { "-\($0)" } }
}
