/// Settings given on the command line: they win over every other source.
public struct SettingOverrides: Sendable, Equatable {
    public var baseURL: String?
    public var model: String?
    public var systemPrompt: String?
    public var temperature: Double?
    public var maxTokens: Int?
    public var connectTimeout: Double?
    public var idleTimeout: Double?
    public var stream: Bool?
    /// Retries after a failed request.
    public var retries: Int?
    /// Allow sending the API key over plain http to a host other than loopback.
    public var allowInsecureHTTP: Bool?
    /// false: store nothing for this run (`--no-history`).
    public var history: Bool?
    /// The profile to use instead of the config's `default_profile`.
    public var profile: String?
    /// A config file to read instead of the default location; it must exist.
    public var configPath: String?

    /// Creates an empty set of overrides.
    public init() {}
}
