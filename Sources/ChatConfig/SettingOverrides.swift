import ChatDomain

/// Settings given on the command line: they win over every other source. Values are kept by
/// config key, checked as `SettingsTable` says, so a flag needs no field of its own here.
public struct SettingOverrides: Sendable, Equatable {
    /// The profile to use instead of the config's `default_profile`.
    public var profile: String?
    /// A config file to read instead of the default location; it must exist.
    public var configPath: String?
    /// The role to use (`-r`): its prompt and settings come between the flags and the profile.
    public var role: String?
    /// `--no-tools`: no tools this run, whatever `tools` or `-T` say.
    public var noTools = false
    /// `--yes-tools`, each item given: `SERVER` or `SERVER.TOOL`, run without asking.
    public var yesTools: [String] = []
    /// Where `yesTools` came from, to name it in an error (the command line's flag).
    public var yesToolsSource = SettingSource.commandLine
    /// The checked values, by config key.
    var values: [String: SettingValue] = [:]
    /// The flag that gave each value, by config key, to name it in messages.
    var flags: [String: String] = [:]

    /// Creates an empty set of overrides.
    public init() {}

    /// Whether `key` is a config key, one a settings flag may set.
    public static func isSetting(_ key: String) -> Bool {
        SettingsTable.setting(key) != nil
    }

    /// Sets `key` from a flag's text, checked as the settings table says; `flag` (`--temperature`)
    /// names it in the error.
    public mutating func set(_ key: String, text: String, flag: String) throws(SettingsError) {
        guard let setting = SettingsTable.setting(key) else { throw .noSuchSetting(flag: flag, trueOrFalse: false) }
        values[key] = try setting.kind.value(fromText: text, name: flag)
        flags[key] = flag
    }

    /// Whether the command line gave a value for `key`.
    public func sets(_ key: String) -> Bool {
        values[key] != nil
    }

    /// Sets `setting` as its flag (`setting.flag`) was given: with its `text`, or, for a switch
    /// (nil), to the value the switch sets. A message names the flag by its long name.
    public mutating func set(_ setting: Setting, fromFlag text: String?) throws(SettingsError) {
        let name = setting.flag?.longName ?? setting.key
        if let text {
            try set(setting.key, text: text, flag: name)
        } else {
            try set(setting.key, setting.switchValue, flag: name)
        }
    }

    /// Sets the true-or-false `key` (`--no-stream` sets `stream` to false).
    public mutating func set(_ key: String, _ value: Bool, flag: String) throws(SettingsError) {
        guard case .boolean? = SettingsTable.setting(key)?.kind else {
            throw .noSuchSetting(flag: flag, trueOrFalse: true)
        }
        values[key] = .boolean(value)
        flags[key] = flag
    }
}
