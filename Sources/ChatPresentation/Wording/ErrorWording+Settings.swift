import ChatDomain

extension ErrorWording {
    /// The line for settings that cannot be used, naming the flag, environment variable or config
    /// key that gave the value and where it was set.
    public static func line(for error: SettingsError) -> String {
        switch error {
        case .configFile(let path, let problem):
            return "config \(path): \(text(problem))"
        case .badValue(let name, let text, let rule):
            return valueLine(name: name, text: text, rule)
        case .noSuchSetting(let flag, let trueOrFalse):
            return trueOrFalse ? "\(flag) names no true-or-false setting" : "\(flag) names no setting"
        case .noRole(let name, let known):
            return "no role named \"\(name)\" (--role); known roles: \(known.joined(separator: ", "))"
        case .noProfile(let name, let chooser, let known):
            return "no profile named \"\(name)\" (\(text(chooser))); known profiles: \(known.joined(separator: ", "))"
        case .baseURLScheme(let url, let source):
            return "the base URL \"\(url)\" (from \(source.name)) must start with http:// or https://"
        case .missingAPIKey(let missing):
            guard let kept = missing.keptKey else {
                return "no API key for \(missing.url): set \(missing.keyVariable) (or api_key_env, api_key_file or "
                    + "api_key_command in the config), or use a local server: \(missing.localModelCommand), then "
                    + "chat --profile local"
            }
            return "no API key for \(missing.url): \(text(kept.owner)) is only sent to \(kept.homeOrigin), and "
                + "--base-url goes to \(kept.requestOrigin); set \(kept.keyVariable) for it, or give it a profile of its "
                + "own with its key"
        case .keyOverPlainHTTP(let url):
            return "refusing to send the API key over plain http to \(url): use https, or allow it with "
                + "--allow-insecure-http (or allow_insecure_http in the profile)"
        case .onlyForProvider(let key, let source, let provider, let inUse):
            return "\(key) (from \(source.name)) is for the \(provider) provider; this run's is \(inUse) (choose one "
                + "with \"provider\" in the config, or --profile \(provider))"
        case .noWebSearch(let source, let inUse):
            return "web_search (from \(source.name)): " + webSearchUnavailable(provider: inUse)
        case .exclusive(let first, let firstSource, let second, let secondSource):
            return "\(first) (from \(firstSource.name)) and \(second) (from \(secondSource.name)) both say how much a "
                + "model thinks: give one of them"
        case .noToolServer(let name, let source, let known):
            let hint = NearestName.to(name, among: known).map { "did you mean \($0)? " } ?? ""
            guard !known.isEmpty else {
                return "no MCP server named \"\(name)\" (from \(source.name)): the config has no mcp_servers"
            }
            return "no MCP server named \"\(name)\" (from \(source.name)); \(hint)configured servers: "
                + known.joined(separator: ", ")
        case .clientKeyWithoutCertificate(let source):
            return "client_key (from \(source.name)) needs client_cert, the certificate it belongs to"
        case .tlsFile(let file, let path, let source, let problem):
            let what: String
            switch file {
            case .caCertificates: what = "CA file"
            case .clientCertificate: what = "client certificate"
            case .clientKey: what = "client key"
            }
            return "the \(what) \(path) (from \(source.name)) \(text(problem, "does not exist"))"
        }
    }

    /// The line for a note or warning about how the settings were decided.
    public static func line(for note: SettingsNote) -> String {
        switch note {
        case .keyStaysHome(let kept, let carriesEnvironmentKey):
            return "\(text(kept.owner)) stays with \(kept.homeOrigin); --base-url goes to \(kept.requestOrigin), so "
                + "the request carries \(carriesEnvironmentKey ? kept.keyVariable : "no key")"
        case .keyFileReadableByOthers(let path):
            return "\(path) holds an api_key and others can read it; run: chmod 600 \(path)"
        }
    }

    /// What a config file's key `issue` says, e.g. `modle: unknown key; did you mean model?`.
    private static func text(_ issue: ConfigIssue) -> String {
        "\(issue.key): \(text(issue.problem))"
    }

    /// `a, b or c`.
    public static func either(_ words: [String]) -> String {
        words.count > 1 ? words.dropLast().joined(separator: ", ") + " or " + (words.last ?? "") : words.first ?? ""
    }

    private static func valueLine(name: String, text: String, _ rule: SettingValueRule) -> String {
        let got = "got \"\(text)\""
        switch rule {
        case .nonEmpty: return "\(name) needs a non-empty value"
        case .number(let range):
            return "\(name) expects a number from \(plain(range.lowerBound)) to \(plain(range.upperBound)), \(got)"
        case .secondsAboveZero: return "\(name) expects a number of seconds above 0, \(got)"
        case .wholeNumber(let range):
            return "\(name) expects a whole number from \(range.lowerBound) to \(range.upperBound), \(got)"
        case .wholeNumberFrom(let minimum): return "\(name) expects a whole number above \(minimum - 1), \(got)"
        case .trueOrFalse: return "\(name) expects true or false, \(got)"
        case .oneOf(let words): return "\(name) expects \(either(words)), \(got)"
        case .configFileOnly: return "\(name) cannot be given as text; set it in the config file"
        }
    }

    private static func text(_ problem: ConfigFileProblem) -> String {
        switch problem {
        case .missing: return "no such file (given with --config)"
        case .unreadable(let reason): return "cannot be read: \(reason)"
        case .issue(let issue): return text(issue)
        case .keySource(let profile, let problem):
            let prefix = profile.map { "profiles.\($0)." } ?? ""
            switch problem {
            case .variableNotSet(let name): return "\(prefix)api_key_env names \(name), which is not set"
            case .variableBlank(let name): return "\(prefix)api_key_env names \(name), which is empty"
            case .file(let path, let problem): return "\(prefix)api_key_file \(path) \(text(problem, "does not exist"))"
            case .fileEmpty(let path): return "\(prefix)api_key_file \(path) is empty"
            case .commandNotRun(let reason): return "\(prefix)api_key_command: \(reason)"
            case .commandFailed(let status): return "\(prefix)api_key_command failed with exit status \(status)"
            case .commandPrintedNothing: return "\(prefix)api_key_command printed nothing"
            }
        }
    }

    private static func text(_ problem: ConfigProblem) -> String {
        switch problem {
        case .notJSON(let line, let column, let problem):
            return "not valid JSON: line \(line), column \(column): \(problem)"
        case .wrongType(let expected, let got):
            return "expected \(text(expected)), got \(text(got))"
        case .numberOutOfRange(let range, let value):
            return "expected a number from \(range.lowerBound) to \(range.upperBound), got \(value)"
        case .notAWholeNumber(let minimum, let value):
            return "expected a whole number of at least \(minimum), got \(value)"
        case .notOneOf(let words, let value):
            return "expected \(either(words)), got \"\(value)\""
        case .unknownKey(let nearest?, _):
            return "unknown key; did you mean \(nearest)?"
        case .unknownKey(nil, let known):
            return "unknown key (known keys: \(known.joined(separator: ", ")))"
        case .unknownRoleKey(let known):
            return "unknown key (a role holds \(known.joined(separator: ", ")))"
        case .severalKeySources(let keys):
            return
                "give one of api_key, api_key_env, api_key_file, api_key_command, not \(keys.joined(separator: " and "))"
        case .roleNeedsPrompt:
            return "a role needs a prompt"
        case .missingKeys(let keys):
            return "needs " + keys.joined(separator: " and ")
        }
    }

    private static func text(_ expected: ConfigExpectation) -> String {
        switch expected {
        case .objectAtTop: "a JSON object at the top"
        case .object: "an object"
        case .objectOfProfiles: "an object of profiles"
        case .objectOfRoles: "an object of roles"
        case .string: "a string"
        case .trueOrFalse: "true or false"
        case .number: "a number"
        case .wholeNumber: "a whole number"
        case .objectOfStrings: "an object of strings"
        case .listOfStrings: "a list of strings"
        case .objectOfServers: "an object of servers by name"
        case .objectOfPrices: "an object of prices by model name"
        }
    }

    private static func text(_ kind: JSONKind) -> String {
        switch kind {
        case .null: "null"
        case .boolean: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    private static func text(_ chooser: ProfileChooser) -> String {
        switch chooser {
        case .flag: "--profile"
        case .role(let name, let path): "role \(name) in \(path)"
        case .defaultProfile(let path): "default_profile in \(path)"
        case .fallback(.configFile(let key, let path)): "\(key) in \(path)"
        case .fallback(let source): "fallback in \(source.name)"
        }
    }

    private static func text(_ owner: KeptKey.Owner) -> String {
        switch owner {
        case .topLevel(let path): "the top-level API key of \(path)"
        case .profile(let name): "the API key of profile \(name)"
        }
    }

    private static func text(_ problem: FileProblem, _ missing: String) -> String {
        switch problem {
        case .missing: missing
        case .unreadable(let reason): "cannot be read: \(reason)"
        }
    }

    /// A number as people write it: `2`, not `2.0`.
    static func plain(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}

extension ErrorWording {
    /// Why there is no web search on `provider` (Chat Completions), and which providers have it.
    public static func webSearchUnavailable(provider: String) -> String {
        "chat offers no web search on the \(provider) provider (Chat Completions has no search tool of its own); "
            + "use the anthropic or openai-responses provider (\"provider\" in the config, or a --profile that sets one)"
    }
}
