import ChatCatalogue

/// One key of the config, declared once in `SettingsTable`: its name as the file writes it,
/// what it holds, the environment variable that may set it, its default, where the decided
/// value goes, and its command-line flag, if it has one.
public struct Setting: Sendable {
    /// The key as written in the config file, e.g. `max_tokens`. A settings flag is named after it.
    public let key: String
    /// What the key holds, and which values it takes.
    package let kind: SettingKind
    /// The environment variable that sets it (between the profile and the top level), if any.
    package let environment: String?
    /// The value when no level sets it, if any.
    package let defaultValue: SettingValue?
    /// What it does, in a sentence: the configuration page's table says it (`scripts/docs`).
    package let about: String
    /// Stores a decided value in the settings; false when the value is not of the destination's
    /// type. Nil for keys only the resolver's own rules read (the key sources, `headers`,
    /// `allow_insecure_http`).
    let destination: (@Sendable (SettingValue, inout ResolvedSettings) -> Bool)?
    /// Its flag on the command line (`--top-p P`, `--no-stream`), if it has one: `--help`, the man
    /// page, the completions and the parser all come from it.
    public let flag: CommandLineFlag?

    /// A key whose decided value `store` puts in the settings (`{ $0.chat.model = $1 }`: a
    /// closure, not a key path, which would be built at run time, on every start, for every
    /// row); `flag` gives it a command-line flag.
    init<Target: SettingTarget>(
        _ key: String, _ kind: SettingKind, environment: String? = nil, default defaultValue: SettingValue? = nil,
        to store: @escaping @Sendable (inout ResolvedSettings, Target) -> Void, flag: SettingFlag? = nil,
        about: String
    ) {
        self.key = key
        self.about = about
        self.kind = kind
        self.environment = environment
        self.defaultValue = defaultValue
        self.destination = { value, settings in
            guard let value = Target(setting: value) else { return false }
            store(&settings, value)
            return true
        }
        self.flag = flag?.resolved(key: key, kind: kind, default: defaultValue)
    }

    /// A key whose decided value `store` stores (a sampling parameter's: a key path through a
    /// subscript would be built at run time, on every start); `flag` gives it a command-line flag.
    init(
        _ key: String, _ kind: SettingKind, environment: String? = nil, default defaultValue: SettingValue? = nil,
        flag: SettingFlag? = nil, about: String,
        store: @escaping @Sendable (SettingValue, inout ResolvedSettings) -> Bool
    ) {
        self.key = key
        self.about = about
        self.kind = kind
        self.environment = environment
        self.defaultValue = defaultValue
        self.destination = store
        self.flag = flag?.resolved(key: key, kind: kind, default: defaultValue)
    }

    /// A key only the resolver's own rules read; `flag` gives it a command-line flag.
    init(
        _ key: String, _ kind: SettingKind, environment: String? = nil, default defaultValue: SettingValue? = nil,
        flag: SettingFlag? = nil, about: String
    ) {
        self.key = key
        self.about = about
        self.kind = kind
        self.environment = environment
        self.defaultValue = defaultValue
        self.destination = nil
        self.flag = flag?.resolved(key: key, kind: kind, default: defaultValue)
    }

    /// What the flag of a true-or-false setting sets it to: false for `--no-KEY`, the flag of a
    /// setting that is true unless changed; true for `--KEY`.
    var switchValue: Bool { defaultValue != .boolean(true) }
}
