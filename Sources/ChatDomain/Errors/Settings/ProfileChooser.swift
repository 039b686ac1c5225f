/// What chose a profile.
public enum ProfileChooser: Sendable, Equatable {
    /// `--profile`.
    case flag
    /// The role of that name, in the config file at `path`.
    case role(String, path: String)
    /// `default_profile` in the config file at `path`.
    case defaultProfile(path: String)
    /// `fallback`, as set there.
    case fallback(SettingSource)
}
