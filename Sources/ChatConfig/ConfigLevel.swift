import ChatDomain

/// The settings one level of the config holds: the top level, or one profile. Only the keys it
/// sets are present: an absent key leaves the decision to a lower level.
struct ConfigLevel: Equatable {
    /// The checked values, by config key.
    var values: [String: SettingValue]

    /// The keys a level may hold, as written in the file: those of `SettingsTable`.
    static let keys = Set(SettingsTable.all.map(\.key))

    /// The keys that name where the API key comes from; a level names at most one.
    static let keySources = ["api_key", "api_key_env", "api_key_file", "api_key_command"]

    /// Whether this level names a source for the API key.
    var hasKeySource: Bool {
        Self.keySources.contains { values[$0] != nil }
    }

    /// The value of `key`, if this level sets it.
    subscript(key: String) -> SettingValue? {
        get { values[key] }
        set { values[key] = newValue }
    }

    /// A level holding `values`.
    init(values: [String: SettingValue] = [:]) {
        self.values = values
    }

    /// Reads a level from a JSON object; `path` prefixes key names in messages
    /// (`profiles.local.`). Keys in `extraKeys` are left for the caller.
    init(_ object: [String: JSONValue], path: String = "", extraKeys: Set<String> = []) throws(ConfigIssue) {
        for key in object.keys.sorted() where !Self.keys.contains(key) && !extraKeys.contains(key) {
            let known = Self.keys.union(extraKeys).sorted()
            throw ConfigIssue(
                key: path + key, problem: .unknownKey(nearest: NearestName.to(key, among: known), known: known))
        }
        let reader = ConfigReader(object: object, path: path)
        values = [:]
        for setting in SettingsTable.all {
            values[setting.key] = try setting.kind.read(setting.key, from: reader)
        }
        let sources = Self.keySources.filter { object[$0] != nil }
        if sources.count > 1 {
            throw ConfigIssue(key: path + sources[1], problem: .severalKeySources(sources))
        }
    }

    /// This level with every key `other` sets taken from `other`; the key sources go together, so
    /// `other`'s key source replaces this level's.
    func overlaid(by other: ConfigLevel) -> ConfigLevel {
        var merged = self
        if other.hasKeySource {
            for key in Self.keySources { merged.values[key] = nil }
        }
        merged.values.merge(other.values) { $1 }
        return merged
    }
}
