import ChatCatalogue
import ChatHTTP

/// Every config key, once. `ConfigLevel` reads a level of the file by it, `SettingOverrides`
/// checks a flag's value by it, and `SettingsResolver` walks it: each key's value comes from the
/// first of flags, the chosen profile, its environment variable, the top level and its default
/// that sets it, and goes to its destination. The resolver's own rules then handle what a walk
/// cannot: the key sources (one per level; a key only goes to the server it was configured for),
/// headers (merged across levels), and the base URL checks. A key's command-line flag is declared
/// in its row too (`flag:`): the executable's parser, `--help`, man page and completions read it
/// from here, so a new setting with a flag is one row.
public enum SettingsTable {
    /// Every key, in the order `--help` lists the flags: the server, model and system prompt,
    /// then the sampling parameters' rows (from `SamplingTable`), then the rest.
    public static let all: [Setting] = leading + SamplingTable.all.map(\.setting) + trailing

    private static let leading: [Setting] = [
        Setting(
            "base_url", .text(nonEmptyFlag: true), environment: "OPENAI_BASE_URL",
            default: .text("https://api.openai.com/v1"), to: { $0.server.baseURL = $1 }, flag: .value("URL", "API root")
        ),
        Setting(
            "model", .text(nonEmptyFlag: true), default: .text("gpt-4o-mini"), to: { $0.chat.model = $1 },
            flag: .value("NAME", "model to ask", short: "m")),
        Setting(
            "system_prompt", .text(), to: { $0.systemPrompt = $1 },
            flag: .value("TEXT", "system prompt", short: "s", long: "system")),
    ]

    private static let trailing: [Setting] = [
        Setting(
            "connect_timeout", .seconds(0.001...3600), default: .number(10), to: { $0.server.connectTimeout = $1 },
            flag: .value("SECS", "give up connecting after SECS")),
        Setting(
            "idle_timeout", .seconds(0.001...86_400), default: .number(60), to: { $0.server.idleTimeout = $1 },
            flag: .value("SECS", "give up when no data arrives for SECS")),
        Setting(
            "stream", .boolean, default: .boolean(true), to: { $0.chat.stream = $1 },
            flag: .switch("ask for the whole answer at once")),
        Setting("api_key", .text(), environment: "OPENAI_API_KEY"),
        Setting("api_key_env", .text()),
        Setting("api_key_file", .text()),
        Setting("api_key_command", .text()),
        Setting("headers", .stringMap),
        Setting("proxy", .text(), to: { $0.server.proxy = $1 }),
        Setting(
            "retries", .wholeNumber(minimum: 0, flagMaximum: 20), default: .wholeNumber(2),
            to: { $0.server.retry.maxRetries = $1 }, flag: .value("N", "send a failed request again up to N times")),
        // TLS
        Setting(
            "ca_cert", .text(nonEmptyFlag: true), to: { $0.server.tls.caCertificate = $1 },
            flag: .value(
                "FILE",
                "verify the server with the CA certificates in FILE (PEM; default: SSL_CERT_FILE, CURL_CA_BUNDLE, "
                    + "the system's)", completion: .file)),
        Setting(
            "client_cert", .text(nonEmptyFlag: true), to: { $0.server.tls.clientCertificate = $1 },
            flag: .value(
                "FILE", "show the client certificate in FILE (PEM) to a server that wants one", completion: .file)),
        Setting(
            "client_key", .text(nonEmptyFlag: true), to: { $0.server.tls.clientKey = $1 },
            flag: .value("FILE", "the client certificate's private key (PEM), if not in its file", completion: .file)),
        Setting(
            "allow_insecure_http", .boolean, default: .boolean(false),
            flag: .switch("allow sending the API key over plain http to another host")),
        Setting(
            "history", .boolean, default: .boolean(true), to: { $0.history = $1 },
            flag: .switch("store nothing for this run (not even input history)")),
        Setting("max_context_tokens", .wholeNumber(minimum: 1), to: { $0.chat.maxContextTokens = $1 }),
        // Roles and attachments
        Setting(
            "max_file_bytes", .wholeNumber(minimum: 1), default: .wholeNumber(1_048_576), to: { $0.maxFileBytes = $1 }),
        // Rendering
        Setting(
            "render", .choice(RenderMode.allCases.map(\.rawValue)), default: .text(RenderMode.auto.rawValue),
            to: { $0.render = $1 },
            flag: .value("WHEN", "render the answer's Markdown: auto (on a terminal; the default), always or never")),
        // Providers
        Setting(
            "provider", .choice(ProviderKind.allCases.map(\.rawValue)), default: .text(ProviderKind.openAI.rawValue),
            to: { $0.server.provider = $1 }),
        // Anthropic's (the resolver refuses thinking_budget for another provider)
        Setting(
            "thinking_budget", .wholeNumber(minimum: 1024), to: { $0.server.thinkingBudget = $1 },
            flag: .value(
                "TOKENS", "let an anthropic-provider model think first, with up to TOKENS tokens (at least 1024)",
                long: "thinking")),
        Setting("cache", .boolean, default: .boolean(false), to: { $0.server.promptCaching = $1 }),
        // Tools from MCP servers (the config's `mcp_servers`)
        Setting(
            "tools", .names, to: { $0.tools.servers = $1 },
            flag: .value(
                "NAME[,NAME]", "offer the tools of these MCP servers (the config's mcp_servers) to the model",
                short: "T", completion: .listed("tool-servers"))),
        Setting(
            "max_tool_rounds", .wholeNumber(minimum: 1), default: .wholeNumber(10), to: { $0.tools.roundLimit = $1 },
            flag: .value("N", "run at most N rounds of tool calls, then ask whether to go on")),
        Setting(
            "max_tool_result_bytes", .wholeNumber(minimum: 1), default: .wholeNumber(100_000),
            to: { $0.tools.maxResultBytes = $1 }),
    ]

    /// The entry for `key`, if it is a config key.
    static func setting(_ key: String) -> Setting? {
        byKey[key]
    }

    private static let byKey = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })
}
