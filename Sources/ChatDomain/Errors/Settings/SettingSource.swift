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

extension SettingSource {
    /// How a person knows it: `--ca-cert`, `profile work`, `ca_cert in ~/.config/chat/config.json`
    /// (in errors, and in `--verbose`'s lines about the CA file).
    public var name: String {
        switch self {
        case .flag(let name), .environment(let name): name
        case .commandLine: "the command line"
        case .role(let name): "role \(name)"
        case .profile(let name): "profile \(name)"
        case .configFile(let key, let path): "\(key) in \(path)"
        case .defaultValue: "the default"
        }
    }
}
