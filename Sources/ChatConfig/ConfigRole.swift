import ChatCatalogue
import ChatDomain

/// A role as the config's `roles` map holds it: a prompt, the settings it sets (`model`, the
/// sampling parameters of `SamplingTable`, `tools`, and Anthropic's `cache` and
/// `thinking_budget`) and a profile it selects. Only the keys it sets are present; one that
/// shares a built-in role's name adds to that role.
struct ConfigRole: Equatable {
    /// The prompt; may hold `{{input}}`.
    var prompt: String?
    /// The settings it sets, by config key.
    var level: ConfigLevel
    /// The profile it selects unless `--profile` is given.
    var profile: String?

    /// The settings a role may set that a running REPL's `/role` applies too (`PromptRole.settings`).
    static let conversationKeys = ["model"] + SamplingTable.all.map(\.key)
    /// The settings a role may set that are the run's (its tools, the provider's own): they apply
    /// when a run starts with the role, not when `/role` takes it.
    static let runSettingKeys = ["tools", "cache", "thinking_budget"]
    /// The settings a role may set.
    static let settingKeys = conversationKeys + runSettingKeys
    /// Every key a role may hold.
    static let keys = ["prompt", "profile"] + settingKeys
    /// What of a role is the run's: its profile (another server) and `runSettingKeys`.
    static let runKeys = ["profile"] + runSettingKeys

    /// Which of `runKeys` this role sets, sorted.
    var setsForTheRun: [String] {
        Self.runKeys.filter { $0 == "profile" ? profile != nil : level[$0] != nil }.sorted()
    }

    init(prompt: String? = nil, level: ConfigLevel = ConfigLevel(), profile: String? = nil) {
        self.prompt = prompt
        self.level = level
        self.profile = profile
    }

    /// Reads a role from a JSON object; `path` names it in messages (`roles.review.`).
    init(_ object: [String: JSONValue], path: String) throws(ConfigIssue) {
        for key in object.keys.sorted() where !Self.keys.contains(key) {
            throw ConfigIssue(key: path + key, problem: .unknownRoleKey(known: Self.keys))
        }
        let reader = ConfigReader(object: object, path: path)
        prompt = try reader.string("prompt")
        profile = try reader.string("profile")
        level = ConfigLevel()
        for key in Self.settingKeys {
            guard let setting = SettingsTable.setting(key) else { continue }
            level[key] = try setting.kind.read(key, from: reader)
        }
    }

    /// This role with what `other` sets taken from `other`.
    func overlaid(by other: ConfigRole) -> ConfigRole {
        ConfigRole(
            prompt: other.prompt ?? prompt, level: level.overlaid(by: other.level), profile: other.profile ?? profile)
    }
}
