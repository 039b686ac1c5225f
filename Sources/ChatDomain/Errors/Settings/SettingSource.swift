/// Where a setting's value came from.
public enum SettingSource: Sendable, Equatable {
    /// A flag, by its name (`--ca-cert`).
    case flag(String)
    /// The command line, by no flag of a name (a value set directly).
    case commandLine
    /// The role of that name.
    case role(String)
    /// The profile of that name.
    case profile(String)
    /// An environment variable, by its name.
    case environment(String)
    /// A key at the top level of the config file at `path`.
    case configFile(key: String, path: String)
    /// The setting's default.
    case defaultValue
}
