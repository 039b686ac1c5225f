import ChatDomain

/// Decides every setting from flags, the chosen role, the chosen profile, the environment, the
/// config file and the defaults, highest first, by walking `SettingsTable`; then applies the rules a walk cannot
/// express.
///
/// A key goes only where it was configured to go: a key from the config (`api_key`,
/// `api_key_env`, `api_key_file`, `api_key_command`, in a profile or at the top) belongs to the
/// origin of the base URL the run would use without flags (a profile's own `base_url`, if it
/// has one). When `--base-url` moves the request to another origin, that key stays home (it is
/// not even read) and the request carries `OPENAI_API_KEY` if set, or no key; a note says so. A
/// profile that sets its own `base_url` gets only the key that profile names, never
/// `OPENAI_API_KEY` or a top-level key.
public struct SettingsResolver {
    /// Profiles that exist without a config file; a config profile of the same name adds to them.
    static let builtInProfiles: [String: ConfigLevel] = [
        "local": ConfigLevel(values: [
            "base_url": .text("http://127.0.0.1:8080/v1"), "model": .text("smollm2-135m-instruct"),
        ])
    ]

    private let environment: [String: String]
    /// The command that starts the local model, as the no-key message names it.
    private let localModelCommand: () -> String

    /// Creates a resolver that reads `environment` (normally the process's). `localModelCommand`
    /// is how this `chat` names the command that starts the local model (`scripts/local-model
    /// start` in a checkout, `chat-local-model start` once installed); it is asked only when the
    /// message is written.
    public init(
        environment: [String: String],
        localModelCommand: @autoclosure @escaping () -> String = "scripts/local-model start"
    ) {
        self.environment = environment
        self.localModelCommand = localModelCommand
    }

    /// The profiles `--profile` accepts with the config at `configPath` (nil: the default one):
    /// the built-in ones and the config's, sorted.
    public func profileNames(configPath: String?) throws(DataError) -> [String] {
        var warnings: [String] = []
        let (file, _) = try loadConfig(configPath, warnings: &warnings)
        return Set(file.profiles.keys).union(Self.builtInProfiles.keys).sorted()
    }

    /// The roles `--role` accepts with the config at `configPath` (nil: the default one): the
    /// built-in ones, with what the config adds, and the config's; by name.
    public func roles(configPath: String?) throws(DataError) -> [PromptRole] {
        var warnings: [String] = []
        let (file, _) = try loadConfig(configPath, warnings: &warnings)
        return Self.roles(in: file)
    }

    /// The config key of each sampling parameter (`max_tokens`), as the role listing names them.
    public static var samplingKeys: [SamplingParameter: String] {
        Dictionary(uniqueKeysWithValues: SamplingTable.all.map { ($0.parameter, $0.key) })
    }

    /// The default config file: `$XDG_CONFIG_HOME/chat/config.json`, else `~/.config/chat/config.json`.
    public var defaultConfigPath: String? {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg + "/chat/config.json" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.config/chat/config.json"
    }

    /// Resolves the settings; throws `DataError` for a config or setting that cannot be used.
    public func resolve(_ overrides: SettingOverrides) throws(DataError) -> ResolvedSettings {
        var warnings: [String] = []
        var notes: [String] = []
        let (file, filePath) = try loadConfig(overrides.configPath, warnings: &warnings)
        let where_ = filePath ?? "(no config file)"

        // A role comes between the flags and the profile, and names a profile unless --profile does.
        var role: ConfigRole?
        if let roleName = overrides.role {
            guard let found = Self.mergedRoles(in: file)[roleName] else {
                let known = Self.mergedRoles(in: file).keys.sorted().joined(separator: ", ")
                throw .setting("no role named \"\(roleName)\" (--role); known roles: \(known)")
            }
            role = found
        }
        var roleLevel = role?.level ?? ConfigLevel()
        if let prompt = role?.prompt, !prompt.contains(PromptRole.inputPlaceholder) {
            roleLevel["system_prompt"] = .text(prompt)
        }

        let profileName = overrides.profile ?? role?.profile ?? file.defaultProfile
        var profile: ConfigLevel?
        if let profileName {
            let builtIn = Self.builtInProfiles[profileName]
            let configured = file.profiles[profileName]
            guard builtIn != nil || configured != nil else {
                let known = Set(file.profiles.keys).union(Self.builtInProfiles.keys).sorted().joined(separator: ", ")
                let source =
                    overrides.profile != nil
                    ? "--profile"
                    : role?.profile != nil
                        ? "role \(overrides.role ?? "") in \(where_)" : "default_profile in \(where_)"
                throw .setting("no profile named \"\(profileName)\" (\(source)); known profiles: \(known)")
            }
            profile = (builtIn ?? ConfigLevel()).overlaid(by: configured ?? ConfigLevel())
        }

        // The walk: each key from the highest level that sets it.
        let environmentLevel = try environmentLevel()
        let decided = Self.decide([
            SettingSource(level: ConfigLevel(values: overrides.values)) { overrides.flags[$0] ?? "the command line" },
            SettingSource(level: roleLevel) { _ in "role \(overrides.role ?? "")" },
            SettingSource(level: profile ?? ConfigLevel()) { _ in "profile \(profileName ?? "")" },
            SettingSource(level: environmentLevel) { SettingsTable.setting($0)?.environment ?? $0 },
            SettingSource(level: file.top) { "\($0) in \(where_)" },
            SettingSource(level: Self.defaults) { _ in "the default" },
        ])
        var settings = ResolvedSettings.blank
        Self.store(decided.mapValues(\.value), in: &settings)

        // The rules.
        let baseURL = decided["base_url"]?.value.text ?? ""
        guard baseURL.hasPrefix("http://") || baseURL.hasPrefix("https://") else {
            let source = decided["base_url"]?.source ?? ""
            throw .setting("the base URL \"\(baseURL)\" (from \(source)) must start with http:// or https://")
        }

        // The key's home: the base URL without the command line's.
        let home = ServerConfiguration(
            baseURL: (profile?["base_url"] ?? environmentLevel["base_url"] ?? file.top["base_url"])?.text
                ?? Self.defaults["base_url"]?.text ?? ""
        ).baseURL
        let url = ServerConfiguration(baseURL: baseURL).baseURL
        let environmentKey = environmentLevel["api_key"]?.text.map { $0.trimmingASCIIWhitespace() }
            .flatMap { $0.isEmpty ? nil : $0 }
        var source = keySource(
            profile: profile, profileName: profileName, environmentKey: environmentKey, top: file.top)
        var keptHome: String?
        let movedElsewhere = overrides.values["base_url"] != nil && URLOrigin(url) != URLOrigin(home)
        if movedElsewhere {
            if case .level(_, let label) = source {
                keptHome =
                    label.isEmpty ? "the top-level API key of \(where_)" : "the API key of profile \(profileName ?? "")"
            }
            if case .environment = source {} else { source = environmentKey.map(KeySource.environment) ?? .none }
        }
        let apiKey = try key(from: source, file: where_)
        let homeOrigin = URLOrigin(home)?.description ?? home
        let urlOrigin = URLOrigin(url)?.description ?? url
        if let keptHome, apiKey != nil || Self.isLoopback(url) {
            notes.append(
                "\(keptHome) stays with \(homeOrigin); --base-url goes to \(urlOrigin), so the request carries "
                    + (apiKey != nil ? "OPENAI_API_KEY" : "no key"))
        }
        if apiKey == nil && !Self.isLoopback(url) {
            if let keptHome {
                throw .missingAPIKey(
                    "no API key for \(url): \(keptHome) is only sent to \(homeOrigin), and --base-url goes to "
                        + "\(urlOrigin); set OPENAI_API_KEY for it, or give it a profile of its own with its key")
            }
            throw .missingAPIKey(
                "no API key for \(url): set OPENAI_API_KEY (or api_key_env, api_key_file or api_key_command in the config), "
                    + "or use a local server: \(localModelCommand()), then chat --profile local")
        }

        let allowInsecure = decided["allow_insecure_http"]?.value.boolean ?? false
        if apiKey != nil && url.lowercased().hasPrefix("http://") && !Self.isLoopback(url) && !allowInsecure {
            throw .setting(
                "refusing to send the API key over plain http to \(url): use https, or allow it with "
                    + "--allow-insecure-http (or allow_insecure_http in the profile)")
        }

        var headers: [(name: String, value: String)] = []
        for source in [file.top["headers"], profile?["headers"]] {
            for (name, value) in (source?.stringMap ?? [:]).sorted(by: { $0.key < $1.key }) {
                headers.removeAll { $0.name.lowercased() == name.lowercased() }
                headers.append((name, value))
            }
        }

        settings.server.tls = try tls(decided, url: url)
        settings.server.baseURL = url
        settings.server.apiKey = apiKey
        settings.server.headers = headers
        settings.server.proxyInUse = ProxyEnvironment(environment: environment).proxy(
            for: url, configured: settings.server.proxy)
        settings.profile = profileName
        settings.warnings = warnings
        settings.notes = notes

        // What the command line itself gave, apart from every other level: the flags, and the
        // role it named.
        var commandLine = ResolvedSettings.blank
        Self.store(roleLevel.values, in: &commandLine)
        Self.store(overrides.values, in: &commandLine)
        settings.given = commandLine.chat
        settings.givenSystemPrompt = commandLine.systemPrompt
        settings.roles = Self.roles(in: file)
        if let roleName = overrides.role, let chosen = settings.roles.first(where: { $0.name == roleName }) {
            // `{{shell}}` and `{{os}}` are filled for the role in use only: the others are filled
            // when the REPL's /role takes one.
            let filled = RolePlaceholders(environment: environment).fill(chosen)
            settings.role = filled
            if settings.systemPrompt == chosen.systemPrompt { settings.systemPrompt = filled.systemPrompt }
            if settings.givenSystemPrompt == chosen.systemPrompt { settings.givenSystemPrompt = filled.systemPrompt }
        }
        return settings
    }

    /// The built-in roles with what the config adds to them, and the config's own, by name.
    private static func mergedRoles(in file: ConfigFile) -> [String: ConfigRole] {
        BuiltInRoles.all.merging(file.roles) { $0.overlaid(by: $1) }
    }

    /// Every role, sorted by name.
    private static func roles(in file: ConfigFile) -> [PromptRole] {
        mergedRoles(in: file).map { name, role in
            var settings = ResolvedSettings.blank
            store(role.level.values, in: &settings)
            return PromptRole(
                name: name, prompt: role.prompt ?? "", settings: settings.chat, isBuiltIn: BuiltInRoles.all[name] != nil
            )
        }.sorted { $0.name < $1.name }
    }

    /// Whether `url` points at this machine, where a key is not required.
    static func isLoopback(_ url: String) -> Bool {
        guard let host = URLHost.of(url) else { return false }
        if host.hasPrefix("[") { return host == "[::1]" }
        let isIPv4 = !host.isEmpty && host.allSatisfy { $0 == "." || ("0"..."9").contains($0) }
        return host == "localhost" || host.hasSuffix(".localhost") || (isIPv4 && host.hasPrefix("127."))
    }

    // MARK: - Pieces

    private func loadConfig(_ explicitPath: String?, warnings: inout [String]) throws(DataError) -> (
        ConfigFile, String?
    ) {
        let path = explicitPath.map { FileSystem.expandingTilde($0, home: environment["HOME"]) } ?? defaultConfigPath
        guard let path else { return (ConfigFile(), nil) }
        let bytes: [UInt8]
        do throws(FileSystem.ReadError) {
            bytes = try FileSystem.read(path)
        } catch {
            switch error {
            case .missing:
                if explicitPath != nil { throw .config(file: path, message: "no such file (given with --config)") }
                return (ConfigFile(), nil)
            case .unreadable(let reason):
                throw .config(file: path, message: "cannot be read: \(reason)")
            }
        }
        let file: ConfigFile
        do {
            file = try ConfigFile(bytes: bytes)
        } catch {
            throw .config(file: path, message: error.description)
        }
        let holdsKey = file.top["api_key"] != nil || file.profiles.values.contains { $0["api_key"] != nil }
        if holdsKey, let mode = FileSystem.mode(path), mode & 0o077 != 0 {
            warnings.append("\(path) holds an api_key and others can read it; run: chmod 600 \(path)")
        }
        return (file, path)
    }

    /// Where the key comes from, before it is read.
    private enum KeySource {
        /// A level of the config (`label`: `profiles.NAME`, or empty for the top level).
        case level(ConfigLevel, label: String)
        /// `OPENAI_API_KEY`, trimmed.
        case environment(String)
        case none
    }

    /// The key source the run would use without flags: the profile's, none for a profile with
    /// a `base_url` of its own and no key, `OPENAI_API_KEY`, the top level's.
    private func keySource(profile: ConfigLevel?, profileName: String?, environmentKey: String?, top: ConfigLevel)
        -> KeySource
    {
        if let profile, profile.hasKeySource { return .level(profile, label: "profiles.\(profileName ?? "")") }
        if let profile, profile["base_url"] != nil { return .none }  // its own server: never another's key
        if let environmentKey { return .environment(environmentKey) }
        if top.hasKeySource { return .level(top, label: "") }
        return .none
    }

    /// The key `source` gives, read now (a file read, a command run).
    private func key(from source: KeySource, file: String) throws(DataError) -> String? {
        switch source {
        case .level(let level, let label): return try key(from: level, label: label, file: file)
        case .environment(let key): return key
        case .none: return nil
        }
    }

    private func key(from level: ConfigLevel, label: String, file: String) throws(DataError) -> String? {
        let prefix = label.isEmpty ? "" : label + "."
        if let key = level["api_key"]?.text {
            return key.trimmingASCIIWhitespace()
        }
        if let name = level["api_key_env"]?.text {
            guard let value = environment[name], !value.trimmingASCIIWhitespace().isEmpty else {
                throw .config(file: file, message: "\(prefix)api_key_env names \(name), which is not set")
            }
            return value.trimmingASCIIWhitespace()
        }
        if let path = level["api_key_file"]?.text {
            let expanded = FileSystem.expandingTilde(path, home: environment["HOME"])
            let bytes: [UInt8]
            do throws(FileSystem.ReadError) {
                bytes = try FileSystem.read(expanded)
            } catch {
                switch error {
                case .missing:
                    throw .config(file: file, message: "\(prefix)api_key_file \(expanded) does not exist")
                case .unreadable(let reason):
                    throw .config(file: file, message: "\(prefix)api_key_file \(expanded) cannot be read: \(reason)")
                }
            }
            let key = String(decoding: bytes, as: UTF8.self).trimmingASCIIWhitespace()
            guard !key.isEmpty else { throw .config(file: file, message: "\(prefix)api_key_file \(expanded) is empty") }
            return key
        }
        if let command = level["api_key_command"]?.text {
            let result: (status: Int32, output: [UInt8])
            do {
                result = try ShellCommand.run(command)
            } catch {
                throw .config(file: file, message: "\(prefix)api_key_command: \(error.message)")
            }
            guard result.status == 0 else {
                throw .config(file: file, message: "\(prefix)api_key_command failed with exit status \(result.status)")
            }
            let key = String(decoding: result.output, as: UTF8.self).trimmingASCIIWhitespace()
            guard !key.isEmpty else {
                throw .config(file: file, message: "\(prefix)api_key_command printed nothing")
            }
            return key
        }
        return nil
    }

    /// The certificates to trust and show: a CA file from the flags, the profile or the top
    /// level, else `SSL_CERT_FILE`, else `CURL_CA_BUNDLE` (as the Python clients and curl read
    /// them), else the system's; a client certificate and key. For an `https://` URL each file
    /// must exist, so a wrong path is a setting error rather than a failed handshake.
    private func tls(_ decided: [String: (value: SettingValue, source: String)], url: String) throws(DataError)
        -> TLSConfiguration
    {
        func file(_ key: String) -> (path: String, source: String)? {
            decided[key].flatMap { entry in
                entry.value.text.map { (FileSystem.expandingTilde($0, home: environment["HOME"]), entry.source) }
            }
        }
        var ca = file("ca_cert")
        if ca == nil, let name = ["SSL_CERT_FILE", "CURL_CA_BUNDLE"].first(where: { !(environment[$0] ?? "").isEmpty })
        {
            ca = environment[name].map { (FileSystem.expandingTilde($0, home: environment["HOME"]), name) }
        }
        let certificate = file("client_cert")
        let key = file("client_key")
        if let key, certificate == nil {
            throw .setting("client_key (from \(key.source)) needs client_cert, the certificate it belongs to")
        }
        if url.lowercased().hasPrefix("https://") {
            for (what, entry) in [("CA file", ca), ("client certificate", certificate), ("client key", key)] {
                guard let entry else { continue }
                do throws(FileSystem.ReadError) {
                    try FileSystem.checkReadable(entry.path)
                } catch {
                    switch error {
                    case .missing:
                        throw .setting("the \(what) \(entry.path) (from \(entry.source)) does not exist")
                    case .unreadable(let reason):
                        throw .setting("the \(what) \(entry.path) (from \(entry.source)) cannot be read: \(reason)")
                    }
                }
            }
        }
        return TLSConfiguration(
            caCertificate: ca?.path, caCertificateSource: ca?.source, clientCertificate: certificate?.path,
            clientKey: key?.path)
    }

    // MARK: - The walk

    /// One level of the walk, and how it is named in messages about a key it set.
    private struct SettingSource {
        var level: ConfigLevel
        var name: (String) -> String
    }

    /// Every key's defaults, as the lowest level.
    private static let defaults = ConfigLevel(
        values: Dictionary(
            uniqueKeysWithValues: SettingsTable.all.compactMap { setting in
                setting.defaultValue.map { (setting.key, $0) }
            }))

    /// The values the environment variables of `SettingsTable` give; an empty variable is unset.
    private func environmentLevel() throws(DataError) -> ConfigLevel {
        var level = ConfigLevel()
        for setting in SettingsTable.all {
            guard let name = setting.environment, let text = environment[name], !text.isEmpty else { continue }
            level[setting.key] = try setting.kind.value(fromText: text, name: name)
        }
        return level
    }

    /// Each key's value from the first of `sources` that sets it, and that source's name.
    private static func decide(_ sources: [SettingSource]) -> [String: (value: SettingValue, source: String)] {
        var decided: [String: (value: SettingValue, source: String)] = [:]
        for setting in SettingsTable.all {
            for source in sources {
                guard let value = source.level[setting.key] else { continue }
                decided[setting.key] = (value, source.name(setting.key))
                break
            }
        }
        return decided
    }

    /// Stores each of `values` at its key's destination.
    private static func store(_ values: [String: SettingValue], in settings: inout ResolvedSettings) {
        for setting in SettingsTable.all {
            guard let value = values[setting.key], let destination = setting.destination else { continue }
            _ = destination(value, &settings)
        }
    }
}
