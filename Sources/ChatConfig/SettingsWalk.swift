import ChatDomain
import ChatHTTP

/// The levels a setting's value may come from, highest first — the command line, the chosen
/// role, the chosen profile, the environment, the config's top level, the defaults — and, for
/// each key of `SettingsTable`, the value of the first level that sets it and where it came from.
struct SettingsWalk {
    /// One level, and how a key it set is named in messages.
    struct Level {
        var values: ConfigLevel
        var source: (String) -> SettingSource
        /// Whether it is the command line's.
        var isCommandLine = false
    }

    /// A decided value, and where it came from.
    struct Decided {
        var value: SettingValue
        var source: SettingSource
        /// Which level it came from: 0 is the highest.
        var level = 0
    }

    var levels: [Level]

    /// Every key's defaults, as the lowest level.
    static let defaults = ConfigLevel(
        values: Dictionary(
            uniqueKeysWithValues: SettingsTable.all.compactMap { setting in
                setting.defaultValue.map { (setting.key, $0) }
            }))

    /// Every key's defaults for `provider`'s requests: the table's, with the provider's own.
    static func defaults(for provider: ProviderKind) -> ConfigLevel {
        provider.defaults.isEmpty ? defaults : defaults.overlaid(by: ConfigLevel(values: provider.defaults))
    }

    /// The values the environment variables of `SettingsTable` give to `provider`'s requests
    /// (`ProviderKind.environmentVariable(for:)`); an empty variable is unset.
    static func environmentLevel(_ environment: [String: String], provider: ProviderKind = .openAI)
        throws(SettingsError) -> ConfigLevel
    {
        var level = ConfigLevel()
        for setting in SettingsTable.all {
            guard let name = provider.environmentVariable(for: setting), let text = environment[name], !text.isEmpty
            else { continue }
            level[setting.key] = try setting.kind.value(fromText: text, name: name)
        }
        return level
    }

    /// Each key's value from the first level that sets it.
    func decide() -> [String: Decided] {
        var decided: [String: Decided] = [:]
        for setting in SettingsTable.all {
            for (index, level) in levels.enumerated() {
                guard let value = level.values[setting.key] else { continue }
                decided[setting.key] = Decided(value: value, source: level.source(setting.key), level: index)
                break
            }
        }
        return decided
    }

    /// The walk without the command line: what the run would use without flags (a key's home).
    var withoutCommandLine: SettingsWalk {
        SettingsWalk(levels: levels.filter { !$0.isCommandLine })
    }
}
