/// Why the settings cannot be used, as facts: which setting, where it was given, what is wrong
/// with it. Presentation words them (`ErrorWording`).
public enum SettingsError: Error, Sendable, Equatable {
    /// The config file at `path` cannot be used.
    case configFile(path: String, ConfigFileProblem)
    /// The text a flag or an environment variable gave (`name`: `--temperature`,
    /// `OPENAI_BASE_URL`) is not a value its setting takes.
    case badValue(name: String, text: String, expected: SettingValueRule)
    /// `flag` sets no setting; with `trueOrFalse`, no true-or-false one.
    case noSuchSetting(flag: String, trueOrFalse: Bool)
    /// No role of that name (`--role`); the roles there are.
    case noRole(name: String, known: [String])
    /// No profile of that name, as `chooser` chose it; the profiles there are.
    case noProfile(name: String, chosenBy: ProfileChooser, known: [String])
    /// The base URL does not start with `http://` or `https://`.
    case baseURLScheme(url: String, source: SettingSource)
    /// No API key for a server that needs one.
    case missingAPIKey(MissingAPIKey)
    /// The API key would go over plain http to another machine, which was not allowed.
    case keyOverPlainHTTP(url: String)
    /// A client key without the certificate it belongs to.
    case clientKeyWithoutCertificate(keySource: SettingSource)
    /// A TLS file given for an `https://` URL cannot be used.
    case tlsFile(TLSFile, path: String, source: SettingSource, FileProblem)
    /// A setting that only `provider`'s API takes, set for a run whose provider is `inUse`.
    case onlyForProvider(key: String, source: SettingSource, provider: String, inUse: String)
    /// Web search (`web_search`, from `source`) asked of a provider whose API chat offers none
    /// (`inUse`: Chat Completions).
    case noWebSearch(source: SettingSource, inUse: String)
    /// Two settings that say the same thing two ways (`effort` and `thinking_budget`): give one.
    case exclusive(first: String, firstSource: SettingSource, second: String, secondSource: SettingSource)
    /// `name` (in `tools`, `-T` or `--yes-tools`, as `source` says) is not a server of the config's
    /// `mcp_servers`; `known` are the configured ones.
    case noToolServer(name: String, source: SettingSource, known: [String])
}
