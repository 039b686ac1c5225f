/// The config file, `config.json`: top-level settings, named profiles, the default profile, and
/// named roles.
struct ConfigFile: Equatable {
    var top: ConfigLevel
    var profiles: [String: ConfigLevel]
    var defaultProfile: String?
    var roles: [String: ConfigRole]

    init(
        top: ConfigLevel = ConfigLevel(), profiles: [String: ConfigLevel] = [:], defaultProfile: String? = nil,
        roles: [String: ConfigRole] = [:]
    ) {
        self.top = top
        self.profiles = profiles
        self.defaultProfile = defaultProfile
        self.roles = roles
    }

    /// Parses and checks the file's bytes: strict JSON (`JSONParser`; a syntax error names its
    /// line and column), then each key; an issue names the key and what was expected.
    init(bytes: [UInt8]) throws(ConfigIssue) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw ConfigIssue(key: "(file)", problem: "not valid JSON: \(error.description)")
        }
        guard case .object(let object) = value else {
            throw ConfigIssue(key: "(file)", problem: "expected a JSON object at the top, got \(value.typeName)")
        }
        top = try ConfigLevel(object, extraKeys: ["profiles", "default_profile", "roles"])
        let reader = ConfigReader(object: object, path: "")
        defaultProfile = try reader.string("default_profile")
        profiles = [:]
        switch object["profiles"] {
        case nil:
            break
        case .object(let entries):
            for (name, entry) in entries {
                guard case .object(let profile) = entry else {
                    throw ConfigIssue(key: "profiles.\(name)", problem: "expected an object, got \(entry.typeName)")
                }
                profiles[name] = try ConfigLevel(profile, path: "profiles.\(name).")
            }
        case let other?:
            throw ConfigIssue(key: "profiles", problem: "expected an object of profiles, got \(other.typeName)")
        }
        roles = [:]
        switch object["roles"] {
        case nil:
            break
        case .object(let entries):
            for (name, entry) in entries {
                guard case .object(let role) = entry else {
                    throw ConfigIssue(key: "roles.\(name)", problem: "expected an object, got \(entry.typeName)")
                }
                let parsed = try ConfigRole(role, path: "roles.\(name).")
                if parsed.prompt == nil && BuiltInRoles.all[name] == nil {
                    throw ConfigIssue(key: "roles.\(name)", problem: "a role needs a prompt")
                }
                roles[name] = parsed
            }
        case let other?:
            throw ConfigIssue(key: "roles", problem: "expected an object of roles, got \(other.typeName)")
        }
    }
}
