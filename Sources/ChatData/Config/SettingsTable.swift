/// Every config key, once. `ConfigLevel` reads a level of the file by it, `SettingOverrides`
/// checks a flag's value by it, and `SettingsResolver` walks it: each key's value comes from the
/// first of flags, the chosen profile, its environment variable, the top level and its default
/// that sets it, and goes to its destination. The resolver's own rules then handle what a walk
/// cannot: the key sources (one per level; a key only goes to the server it was configured for),
/// headers (merged across levels), and the base URL checks.
enum SettingsTable {
    /// Every key: the rows below, then the sampling parameters' rows, from `SamplingTable`.
    static let all: [Setting] = declared + SamplingTable.all.map(\.setting)

    private static let declared: [Setting] = [
        Setting(
            "base_url", .text(nonEmptyFlag: true), environment: "OPENAI_BASE_URL",
            default: .text("https://api.openai.com/v1"), to: \.server.baseURL),
        Setting("model", .text(nonEmptyFlag: true), default: .text("gpt-4o-mini"), to: \.chat.model),
        Setting("system_prompt", .text(), to: \.systemPrompt),
        Setting("connect_timeout", .seconds(0.001...3600), default: .number(10), to: \.server.connectTimeout),
        Setting("idle_timeout", .seconds(0.001...86_400), default: .number(60), to: \.server.idleTimeout),
        Setting("stream", .boolean, default: .boolean(true), to: \.chat.stream),
        Setting("api_key", .text(), environment: "OPENAI_API_KEY"),
        Setting("api_key_env", .text()),
        Setting("api_key_file", .text()),
        Setting("api_key_command", .text()),
        Setting("headers", .stringMap),
        Setting("proxy", .text(), to: \.server.proxy),
        Setting(
            "retries", .wholeNumber(minimum: 0, flagMaximum: 20), default: .wholeNumber(2),
            to: \.server.retry.maxRetries),
        // TLS
        Setting("ca_cert", .text(nonEmptyFlag: true), to: \.server.tls.caCertificate),
        Setting("client_cert", .text(nonEmptyFlag: true), to: \.server.tls.clientCertificate),
        Setting("client_key", .text(nonEmptyFlag: true), to: \.server.tls.clientKey),
        Setting("allow_insecure_http", .boolean, default: .boolean(false)),
        Setting("history", .boolean, default: .boolean(true), to: \.history),
        Setting("max_context_tokens", .wholeNumber(minimum: 1), to: \.chat.maxContextTokens),
        // Roles and attachments
        Setting("max_file_bytes", .wholeNumber(minimum: 1), default: .wholeNumber(1_048_576), to: \.maxFileBytes),
        // Rendering
        Setting(
            "render", .choice(RenderMode.allCases.map(\.rawValue)), default: .text(RenderMode.auto.rawValue),
            to: \.render),
        // Providers
        Setting(
            "provider", .choice(ProviderName.allCases.map(\.rawValue)), default: .text(ProviderName.openai.rawValue),
            to: \.provider),
    ]

    /// The entry for `key`, if it is a config key.
    static func setting(_ key: String) -> Setting? {
        byKey[key]
    }

    private static let byKey = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })
}
