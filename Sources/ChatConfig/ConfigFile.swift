import ChatDomain
import ChatHTTP
import ChatJSON
import ChatMCP
import ChatSystem

/// The config file, `config.json`: top-level settings, named profiles, the default profile, and
/// named roles.
package struct ConfigFile: Equatable {
    var top: ConfigLevel
    var profiles: [String: ConfigLevel]
    var defaultProfile: String?
    var roles: [String: ConfigRole]
    /// `mcp_servers`: the MCP servers by name, as written (read into entries only when used).
    var mcpServers: JSONValue?
    /// `prices`: what models cost, read and checked (before chat's own table).
    var prices: [PriceBook.Entry] = []

    init(
        top: ConfigLevel = ConfigLevel(), profiles: [String: ConfigLevel] = [:], defaultProfile: String? = nil,
        roles: [String: ConfigRole] = [:], mcpServers: JSONValue? = nil
    ) {
        self.top = top
        self.profiles = profiles
        self.defaultProfile = defaultProfile
        self.roles = roles
        self.mcpServers = mcpServers
    }

    /// The keys of the file's top level that are not settings, and what each holds: the
    /// configuration page's table says them after the settings (`scripts/docs`).
    package static let sections: [(key: String, takes: String, about: String)] = [
        ("profiles", "object", "Named sets of settings (`--profile NAME`), each an object of the keys above."),
        ("default_profile", "text", "The profile used when `--profile` names none."),
        (
            "roles", "object",
            "Named prompts (`--role NAME`, `/role`): each a `prompt`, with `{{input}}` and other placeholders, "
                + "and settings of its own."
        ),
        (
            "prices", "object",
            "What models cost, by model name or glob (`gpt-4o*`): `input`, `output`, `cache_read` and `cache_write` in "
                + "US dollars per million tokens, `web_search` per thousand searches; before chat's own table."
        ),
        (
            "mcp_servers", "object",
            "The MCP servers whose tools `tools` and `-T` may offer, by name: each a `command` (stdio) or a "
                + "`url` (Streamable HTTP)."
        ),
    ]

    /// Parses and checks the file's bytes: strict JSON (`JSONParser`; a syntax error names its
    /// line and column), then each key; an issue names the key and what was expected.
    init(bytes: [UInt8]) throws(ConfigIssue) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw ConfigIssue(
                key: "(file)", problem: .notJSON(line: error.line, column: error.column, problem: error.problem))
        }
        guard case .object(let object) = value else {
            throw ConfigIssue(key: "(file)", problem: .wrongType(expected: .objectAtTop, got: value.kind))
        }
        top = try ConfigLevel(object, extraKeys: Set(Self.sections.map(\.key)))
        let reader = ConfigReader(object: object, path: "")
        defaultProfile = try reader.string("default_profile")
        profiles = [:]
        switch object["profiles"] {
        case nil:
            break
        case .object(let entries):
            for (name, entry) in entries {
                guard case .object(let profile) = entry else {
                    throw ConfigIssue(key: "profiles.\(name)", problem: .wrongType(expected: .object, got: entry.kind))
                }
                profiles[name] = try ConfigLevel(profile, path: "profiles.\(name).")
            }
        case let other?:
            throw ConfigIssue(key: "profiles", problem: .wrongType(expected: .objectOfProfiles, got: other.kind))
        }
        prices = try ConfigPrices.entries(object["prices"])
        switch object["mcp_servers"] {
        case nil, .object?: mcpServers = object["mcp_servers"]
        case let other?:
            throw ConfigIssue(key: "mcp_servers", problem: .wrongType(expected: .objectOfServers, got: other.kind))
        }
        roles = [:]
        switch object["roles"] {
        case nil:
            break
        case .object(let entries):
            for (name, entry) in entries {
                guard case .object(let role) = entry else {
                    throw ConfigIssue(key: "roles.\(name)", problem: .wrongType(expected: .object, got: entry.kind))
                }
                let parsed = try ConfigRole(role, path: "roles.\(name).")
                if parsed.prompt == nil && BuiltInRoles.all[name] == nil {
                    throw ConfigIssue(key: "roles.\(name)", problem: .roleNeedsPrompt)
                }
                roles[name] = parsed
            }
        case let other?:
            throw ConfigIssue(key: "roles", problem: .wrongType(expected: .objectOfRoles, got: other.kind))
        }
    }

    /// The file at `path`, read and checked; no file at all reads as an empty one unless it was
    /// `given` (`--config`). The note warns of a file holding a key that others can read.
    static func load(_ path: String, given: Bool) throws(SettingsError) -> (file: ConfigFile, warning: SettingsNote?) {
        let bytes: [UInt8]
        do throws(FileSystem.ReadError) {
            bytes = try FileSystem.read(path)
        } catch {
            switch error {
            case .missing:
                guard given else { return (ConfigFile(), nil) }
                throw .configFile(path: path, .missing)
            case .unreadable(let reason):
                throw .configFile(path: path, .unreadable(reason: reason))
            }
        }
        let file: ConfigFile
        do {
            file = try ConfigFile(bytes: bytes)
        } catch {
            throw .configFile(path: path, .issue(error))
        }
        let holdsKey = file.top["api_key"] != nil || file.profiles.values.contains { $0["api_key"] != nil }
        if holdsKey, let mode = FileSystem.mode(path), mode & 0o077 != 0 {
            return (file, .keyFileReadableByOthers(path: path))
        }
        return (file, nil)
    }
}
