/// The settings one level of the config holds: the top level, or one profile. Every field is
/// optional: an absent key leaves the decision to a lower level.
struct ConfigLevel: Equatable {
    var baseURL: String?
    var model: String?
    var systemPrompt: String?
    var temperature: Double?
    var maxTokens: Int?
    var connectTimeout: Double?
    var idleTimeout: Double?
    var stream: Bool?
    var apiKey: String?
    var apiKeyEnv: String?
    var apiKeyFile: String?
    var apiKeyCommand: String?
    var headers: [String: String]?
    var proxy: String?
    var retries: Int?
    var allowInsecureHTTP: Bool?
    var history: Bool?
    var maxContextTokens: Int?

    /// The keys a level may hold, as written in the file.
    static let keys: Set<String> = [
        "base_url", "model", "system_prompt", "temperature", "max_tokens", "connect_timeout", "idle_timeout",
        "stream", "api_key", "api_key_env", "api_key_file", "api_key_command", "headers", "proxy", "retries",
        "allow_insecure_http", "history", "max_context_tokens",
    ]

    /// Whether this level names a source for the API key.
    var hasKeySource: Bool {
        apiKey != nil || apiKeyEnv != nil || apiKeyFile != nil || apiKeyCommand != nil
    }

    /// Reads a level from a JSON object; `path` prefixes key names in messages
    /// (`profiles.local.`). Keys in `extraKeys` are left for the caller.
    init(_ object: [String: JSONValue], path: String = "", extraKeys: Set<String> = []) throws(ConfigIssue) {
        for key in object.keys.sorted() where !Self.keys.contains(key) && !extraKeys.contains(key) {
            let known = Self.keys.union(extraKeys).sorted().joined(separator: ", ")
            throw ConfigIssue(key: path + key, problem: "unknown key (known keys: \(known))")
        }
        let reader = ConfigReader(object: object, path: path)
        baseURL = try reader.string("base_url")
        model = try reader.string("model")
        systemPrompt = try reader.string("system_prompt")
        temperature = try reader.number("temperature", range: 0...2)
        maxTokens = try reader.integer("max_tokens", minimum: 1)
        connectTimeout = try reader.number("connect_timeout", range: 0.001...3600)
        idleTimeout = try reader.number("idle_timeout", range: 0.001...86_400)
        stream = try reader.bool("stream")
        apiKey = try reader.string("api_key")
        apiKeyEnv = try reader.string("api_key_env")
        apiKeyFile = try reader.string("api_key_file")
        apiKeyCommand = try reader.string("api_key_command")
        headers = try reader.stringMap("headers")
        proxy = try reader.string("proxy")
        retries = try reader.integer("retries", minimum: 0)
        allowInsecureHTTP = try reader.bool("allow_insecure_http")
        history = try reader.bool("history")
        maxContextTokens = try reader.integer("max_context_tokens", minimum: 1)
        let sources = ["api_key", "api_key_env", "api_key_file", "api_key_command"].filter { object[$0] != nil }
        if sources.count > 1 {
            throw ConfigIssue(
                key: path + sources[1],
                problem:
                    "give one of api_key, api_key_env, api_key_file, api_key_command, not \(sources.joined(separator: " and "))"
            )
        }
    }

    init() {}
}
