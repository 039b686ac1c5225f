import ChatCatalogue
import ChatDomain
import ChatHTTP
import ChatJSON
import ChatMCP
import ChatSystem

/// Decides every setting from flags, the chosen role, the chosen profile, the environment, the
/// config file and the defaults, highest first, by walking `SettingsTable` (`SettingsWalk`); then
/// applies the rules a walk cannot express: the base URL's scheme, where the API key comes from
/// and which server it may go to (`APIKeySource`), the TLS files (`TLSFiles`), headers merged
/// across levels, and the role's placeholders. Its errors are facts (`SettingsError`).
public struct SettingsResolver {
    /// Profiles that exist without a config file; a config profile of the same name adds to them.
    static let builtInProfiles: [String: ConfigLevel] = [
        "local": ConfigLevel(values: [
            "base_url": .text("http://127.0.0.1:8080/v1"), "model": .text("local"), "images": .boolean(false),
            "pdf": .text(PDFHandling.text.rawValue),
        ]),
        "anthropic": ConfigLevel(
            values: ProviderKind.anthropic.defaults.merging(["provider": .text(ProviderKind.anthropic.rawValue)]) {
                $1
            }),
    ]

    private let environment: [String: String]
    /// The command that starts the local model, as the no-key error names it.
    private let localModelCommand: () -> String

    /// Creates a resolver that reads `environment` (normally the process's). `localModelCommand`
    /// is how this `chat` names the command that starts the local model (`scripts/local-model
    /// start` in a checkout, `chat-local-model start` once installed); it is asked only when the
    /// error is made.
    public init(
        environment: [String: String],
        localModelCommand: @autoclosure @escaping () -> String = "scripts/local-model start"
    ) {
        self.environment = environment
        self.localModelCommand = localModelCommand
    }

    /// The profiles `--profile` accepts with the config at `configPath` (nil: the default one):
    /// the built-in ones and the config's, sorted.
    public func profileNames(configPath: String?) throws(SettingsError) -> [String] {
        let (file, _, _) = try loadConfig(configPath)
        return Self.profileNames(in: file)
    }

    /// The roles `--role` accepts with the config at `configPath` (nil: the default one): the
    /// built-in ones, with what the config adds, and the config's; by name.
    public func roles(configPath: String?) throws(SettingsError) -> [PromptRole] {
        let (file, _, _) = try loadConfig(configPath)
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

    /// What the settings' levels decide, before the key is read: the config, the role and
    /// profile chosen, the provider, and each setting's value with where it came from.
    private struct Decision {
        var file: ConfigFile
        var configPath: String
        var warning: SettingsNote?
        var roleLevel: ConfigLevel
        var profileName: String?
        var profile: ConfigLevel?
        var provider: ProviderKind
        var environmentLevel: ConfigLevel
        var walk: SettingsWalk
        var decided: [String: SettingsWalk.Decided]
    }

    /// Resolves the settings; an `api_key_command` runs on a thread of its own.
    public func resolve(_ overrides: SettingOverrides) async throws(SettingsError) -> ResolvedSettings {
        let decision = try decide(overrides)
        let (file, configPath, warning) = (decision.file, decision.configPath, decision.warning)
        let (roleLevel, profileName, profile) = (decision.roleLevel, decision.profileName, decision.profile)
        let (provider, environmentLevel) = (decision.provider, decision.environmentLevel)
        let (walk, decided) = (decision.walk, decision.decided)
        var settings = ResolvedSettings.blank
        Self.store(decided.mapValues(\.value), in: &settings)
        settings.chat.provider = provider == .openAI ? nil : provider.rawValue

        guard let url = decided["base_url"].map({ ServerConfiguration(baseURL: $0.value.text ?? "").baseURL }),
            url.hasPrefix("http://") || url.hasPrefix("https://")
        else {
            let base = decided["base_url"]
            throw .baseURLScheme(url: base?.value.text ?? "", source: base?.source ?? .defaultValue)
        }
        let keySource = APIKeySource(
            provider: provider, profile: profile, profileName: profileName, top: file.top,
            topKeyApplies: Self.provider(in: [file.top]) == provider,
            environmentKey: environmentLevel["api_key"]?.text.map { $0.trimmingASCIIWhitespace() }
                .flatMap { $0.isEmpty ? nil : $0 },
            configPath: configPath,
            home: ServerConfiguration(baseURL: walk.withoutCommandLine.decide()["base_url"]?.value.text ?? "").baseURL,
            url: url, urlFromFlag: overrides.values["base_url"] != nil)
        let apiKey = try await keySource.read(environment: environment, configPath: configPath)
        settings.notes = try keySource.check(
            key: apiKey, url: url, allowInsecure: decided["allow_insecure_http"]?.value.boolean ?? false,
            localModelCommand: localModelCommand)

        settings.server.tls = try TLSFiles(environment: environment).configuration(decided, url: url)
        settings.server.baseURL = url
        settings.server.apiKey = apiKey
        settings.server.headers = Self.headers([file.top, profile])
        settings.server.proxyInUse = ProxyEnvironment(environment: environment).proxy(
            for: url, configured: settings.server.proxy)
        settings.profile = profileName
        if let listed = decided["fallback"] {
            let known = Self.profileNames(in: file)
            for name in settings.fallback where !known.contains(name) {
                throw .noProfile(name: name, chosenBy: .fallback(listed.source), known: known)
            }
        }
        settings.prices = PriceBook(file.prices + PriceTable.entries)
        settings.warnings = warning.map { [$0] } ?? []
        try settings.tools.decide(
            serversValue: file.mcpServers, source: decided["tools"]?.source, overrides: overrides,
            environment: environment)
        applyCommandLine(roleLevel: roleLevel, overrides: overrides, file: file, to: &settings)
        return settings
    }

    /// The settings of profile `name` of `fallback`, for a run given `overrides`: the command
    /// line's flags apply, but not those that choose the server, the model or its thinking
    /// (`--base-url`, `-m`, `--thinking`), nor its role: the profile's own do.
    public func resolve(_ overrides: SettingOverrides, fallbackProfile name: String) async throws(SettingsError)
        -> ResolvedSettings
    {
        var given = overrides
        given.profile = name
        given.role = nil
        for key in ["base_url", "model", "provider", "thinking_budget", "thinking_form", "fallback"] {
            given.values[key] = nil
            given.flags[key] = nil
        }
        return try await resolve(given)
    }

    /// The levels' decision for `overrides` (`Decision`).
    private func decide(_ overrides: SettingOverrides) throws(SettingsError) -> Decision {
        let (file, filePath, warning) = try loadConfig(overrides.configPath)
        let configPath = filePath ?? "(no config file)"
        let role = try chosenRole(overrides.role, in: file)
        let roleLevel = Self.level(of: role)
        let (profileName, profile) = try chosenProfile(overrides, role: role, in: file, configPath: configPath)
        let provider = Self.provider(in: [ConfigLevel(values: overrides.values), roleLevel, profile, file.top])
        let environmentLevel = try SettingsWalk.environmentLevel(environment, provider: provider)
        let walk = SettingsWalk(levels: [
            .init(
                values: ConfigLevel(values: overrides.values),
                source: { overrides.flags[$0].map(SettingSource.flag) ?? .commandLine }, isCommandLine: true),
            .init(values: roleLevel) { _ in .role(overrides.role ?? "") },
            .init(values: profile ?? ConfigLevel()) { _ in .profile(profileName ?? "") },
            .init(values: environmentLevel) {
                .environment(SettingsTable.setting($0).flatMap(provider.environmentVariable(for:)) ?? $0)
            },
            .init(values: file.top) { .configFile(key: $0, path: configPath) },
            .init(values: SettingsWalk.defaults(for: provider)) { _ in .defaultValue },
        ])
        var decided = walk.decide()
        for key in ["thinking_budget", "thinking_form"] {
            if let set = decided[key], provider != .anthropic {
                throw .onlyForProvider(
                    key: key, source: set.source, provider: ProviderKind.anthropic.rawValue, inUse: provider.rawValue)
            }
        }
        if let web = decided["web_search"], web.value.boolean == true, provider == .openAI {
            throw .noWebSearch(source: web.source, inUse: provider.rawValue)
        }
        // One way of asking a model to think: a level, or a number of tokens. The nearer level
        // wins (--thinking over a profile's effort); both in one level is an error.
        if let effort = decided["effort"], let budget = decided["thinking_budget"] {
            guard effort.level != budget.level else {
                throw .exclusive(
                    first: "effort", firstSource: effort.source, second: "thinking_budget", secondSource: budget.source)
            }
            decided[effort.level < budget.level ? "thinking_budget" : "effort"] = nil
        }
        return Decision(
            file: file, configPath: configPath, warning: warning, roleLevel: roleLevel, profileName: profileName,
            profile: profile, provider: provider, environmentLevel: environmentLevel, walk: walk, decided: decided)
    }

    /// What `--tools-list` needs, decided by the same levels as a chat run (a role's or a
    /// profile's `tools` too) without reading a key: the servers `-T` or `tools` name, else every
    /// configured one; whether their logs are kept (not with history off); and how an MCP server
    /// over HTTP is reached (the chat server's CA file and proxy, as a chat run uses them).
    public func toolsList(_ overrides: SettingOverrides) throws(SettingsError)
        -> (tools: ToolSettings, keepsLogs: Bool, network: MCPNetworkSettings)
    {
        let decision = try decide(overrides)
        var settings = ResolvedSettings.blank
        Self.store(decision.decided.mapValues(\.value), in: &settings)
        try settings.tools.decide(
            serversValue: decision.file.mcpServers, source: decision.decided["tools"]?.source,
            overrides: SettingOverrides(), environment: environment)
        if !settings.tools.isOn { settings.tools.servers = settings.tools.configured }
        // The TLS files are checked, as a chat run checks them, when a server listed is https.
        let https = (settings.tools.servers ?? []).contains { name in
            decision.file.mcpServers?[name]?["url"]?.string?.lowercased().hasPrefix("https://") == true
        }
        settings.server.tls = try TLSFiles(environment: environment).configuration(
            decision.decided, url: https ? "https://" : "")
        return (settings.tools, settings.history, MCPNetworkSettings(server: settings.server, environment: environment))
    }

    /// Whether a run without a profile goes to Anthropic: `ANTHROPIC_API_KEY` is set, and neither
    /// `OPENAI_API_KEY`, `OPENAI_BASE_URL`, the command line, the role nor the config's top level
    /// names a server, a provider or a key (`scripts/chat`'s local model follows the same rule).
    private func usesAnthropicByDefault(_ overrides: SettingOverrides, role: ConfigLevel, top: ConfigLevel) -> Bool {
        func isSet(_ name: String) -> Bool { !(environment[name] ?? "").isEmpty }
        let anthropicKey = ProviderKind.anthropic.keyVariable
        guard isSet(anthropicKey), !Self.serverVariables.contains(where: { $0 != anthropicKey && isSet($0) }),
            !top.hasKeySource
        else { return false }
        let levels = [ConfigLevel(values: overrides.values), role, top]
        return !levels.contains { $0["base_url"] != nil || $0["provider"] != nil }
    }

    /// The environment variables that name a server or a key: those the settings table reads
    /// (`OPENAI_BASE_URL`, `OPENAI_API_KEY`) and each provider's key variable.
    public static let serverVariables: [String] = {
        var names = SettingsTable.all.compactMap(\.environment)
        for provider in ProviderKind.allCases where !names.contains(provider.keyVariable) {
            names.append(provider.keyVariable)
        }
        return names
    }()

    /// Whether `url` points at this machine, where a key is not required.
    static func isLoopback(_ url: String) -> Bool {
        URLHost.isLoopback(url)
    }

    // MARK: - Pieces

    private func loadConfig(_ given: String?) throws(SettingsError) -> (ConfigFile, String?, SettingsNote?) {
        let path = given.map { FileSystem.expandingTilde($0, home: environment["HOME"]) } ?? defaultConfigPath
        guard let path else { return (ConfigFile(), nil, nil) }
        let (file, warning) = try ConfigFile.load(path, given: given != nil)
        return (file, path, warning)
    }

    /// The role `--role` names, with what the config adds to it.
    private func chosenRole(_ name: String?, in file: ConfigFile) throws(SettingsError) -> ConfigRole? {
        guard let name else { return nil }
        let roles = Self.mergedRoles(in: file)
        guard let role = roles[name] else { throw .noRole(name: name, known: roles.keys.sorted()) }
        return role
    }

    /// The settings a role sets: its own, and its prompt as the system prompt (unless the prompt
    /// is a template for the message). It comes between the flags and the profile.
    private static func level(of role: ConfigRole?) -> ConfigLevel {
        var level = role?.level ?? ConfigLevel()
        if let prompt = role?.prompt, !prompt.contains(PromptRole.inputPlaceholder) {
            level["system_prompt"] = .text(prompt)
        }
        return level
    }

    /// The provider the first of `levels` that names one names; OpenAI's if none does.
    private static func provider(in levels: [ConfigLevel?]) -> ProviderKind {
        levels.lazy.compactMap { $0?["provider"].flatMap(ProviderKind.init(setting:)) }.first ?? .openAI
    }

    /// The profile `--profile`, else the role, else `default_profile` names: built in, with what
    /// the config adds, or the config's own. With none named, `anthropic` when nothing names a
    /// server or a key but `ANTHROPIC_API_KEY` (`usesAnthropicByDefault`).
    private func chosenProfile(
        _ overrides: SettingOverrides, role: ConfigRole?, in file: ConfigFile, configPath: String
    ) throws(SettingsError) -> (String?, ConfigLevel?) {
        guard let name = overrides.profile ?? role?.profile ?? file.defaultProfile else {
            guard usesAnthropicByDefault(overrides, role: Self.level(of: role), top: file.top) else {
                return (nil, nil)
            }
            let builtIn = Self.builtInProfiles["anthropic"] ?? ConfigLevel()
            return ("anthropic", builtIn.overlaid(by: file.profiles["anthropic"] ?? ConfigLevel()))
        }
        let builtIn = Self.builtInProfiles[name]
        let configured = file.profiles[name]
        guard builtIn != nil || configured != nil else {
            let chooser: ProfileChooser =
                overrides.profile != nil
                ? .flag
                : role?.profile != nil
                    ? .role(overrides.role ?? "", path: configPath) : .defaultProfile(path: configPath)
            throw .noProfile(name: name, chosenBy: chooser, known: Self.profileNames(in: file))
        }
        return (name, (builtIn ?? ConfigLevel()).overlaid(by: configured ?? ConfigLevel()))
    }

    /// The headers of `levels`, lowest first: a later level's header replaces one of the same
    /// name (in any case).
    private static func headers(_ levels: [ConfigLevel?]) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        for level in levels {
            for (name, value) in (level?["headers"]?.stringMap ?? [:]).sorted(by: { $0.key < $1.key }) {
                headers.removeAll { $0.name.lowercased() == name.lowercased() }
                headers.append((name, value))
            }
        }
        return headers
    }

    /// What the command line itself gave, apart from every other level (the flags, and the role
    /// it named), every role there is, and the role in use with its placeholders filled.
    private func applyCommandLine(
        roleLevel: ConfigLevel, overrides: SettingOverrides, file: ConfigFile, to settings: inout ResolvedSettings
    ) {
        var commandLine = ResolvedSettings.blank
        Self.store(roleLevel.values, in: &commandLine)
        Self.store(overrides.values, in: &commandLine)
        settings.given = commandLine.chat
        settings.givenSystemPrompt = commandLine.systemPrompt
        settings.roles = Self.roles(in: file)
        guard let roleName = overrides.role, let chosen = settings.roles.first(where: { $0.name == roleName }) else {
            return
        }
        // `{{shell}}` and `{{os}}` are filled for the role in use only: the others are filled when
        // the REPL's /role takes one.
        let filled = RolePlaceholders(environment: environment).fill(chosen)
        settings.role = filled
        if settings.systemPrompt == chosen.systemPrompt { settings.systemPrompt = filled.systemPrompt }
        if settings.givenSystemPrompt == chosen.systemPrompt { settings.givenSystemPrompt = filled.systemPrompt }
    }

    private static func profileNames(in file: ConfigFile) -> [String] {
        Set(file.profiles.keys).union(builtInProfiles.keys).sorted()
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
                name: name, prompt: role.prompt ?? "", settings: settings.chat,
                isBuiltIn: BuiltInRoles.all[name] != nil,
                setsForTheRun: role.setsForTheRun)
        }.sorted { $0.name < $1.name }
    }

    /// Stores each of `values` at its key's destination.
    private static func store(_ values: [String: SettingValue], in settings: inout ResolvedSettings) {
        for setting in SettingsTable.all {
            guard let value = values[setting.key], let destination = setting.destination else { continue }
            _ = destination(value, &settings)
        }
    }
}

extension SettingsResolver {
    /// The MCP servers of the config at `configPath` (nil: the default one), by name: what `-T`
    /// and `--yes-tools` complete to.
    public func toolServerNames(configPath: String?) throws(SettingsError) -> [String] {
        let (file, _, _) = try loadConfig(configPath)
        return file.mcpServers?.object?.keys.sorted() ?? []
    }

}
