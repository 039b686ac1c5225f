import ChatDomain
import Testing

@testable import ChatPresentation

/// Every settings error, note and warning has its line, naming where the value was set.
@Suite struct SettingsErrorWordingTests {
    private static let path = "/home/me/.config/chat/config.json"
    private static let kept = KeptKey(
        owner: .profile("smart"), homeOrigin: "https://smart.example", requestOrigin: "http://localhost:8080",
        keyVariable: "OPENAI_API_KEY")

    @Test(arguments: [
        (SettingsError.configFile(path: path, .missing), "config \(path): no such file (given with --config)"),
        (
            .configFile(path: path, .unreadable(reason: "Permission denied")),
            "config \(path): cannot be read: Permission denied"
        ),
        (
            .configFile(
                path: path,
                .issue(ConfigIssue(key: "(file)", problem: .notJSON(line: 3, column: 1, problem: "a comma before }")))),
            "config \(path): (file): not valid JSON: line 3, column 1: a comma before }"
        ),
        (
            .configFile(
                path: path, .issue(ConfigIssue(key: "profiles.w", problem: .wrongType(expected: .object, got: .string)))
            ),
            "config \(path): profiles.w: expected an object, got a string"
        ),
        (
            .configFile(path: path, .issue(ConfigIssue(key: "temperature", problem: .numberOutOfRange(0...2, got: 3)))),
            "config \(path): temperature: expected a number from 0.0 to 2.0, got 3.0"
        ),
        (
            .configFile(
                path: path, .issue(ConfigIssue(key: "max_tokens", problem: .notAWholeNumber(minimum: 1, got: 1.5)))),
            "config \(path): max_tokens: expected a whole number of at least 1, got 1.5"
        ),
        (
            .configFile(path: path, .issue(ConfigIssue(key: "provider", problem: .notOneOf(["openai"], got: "x")))),
            #"config \#(path): provider: expected openai, got "x""#
        ),
        (
            .configFile(
                path: path, .issue(ConfigIssue(key: "modle", problem: .unknownKey(nearest: "model", known: ["model"])))),
            "config \(path): modle: unknown key; did you mean model?"
        ),
        (
            .configFile(
                path: path, .issue(ConfigIssue(key: "zz", problem: .unknownKey(nearest: nil, known: ["a", "b"])))),
            "config \(path): zz: unknown key (known keys: a, b)"
        ),
        (
            .configFile(
                path: path, .issue(ConfigIssue(key: "roles.x.c", problem: .unknownRoleKey(known: ["prompt", "model"])))),
            "config \(path): roles.x.c: unknown key (a role holds prompt, model)"
        ),
        (
            .configFile(
                path: path,
                .issue(ConfigIssue(key: "api_key_env", problem: .severalKeySources(["api_key", "api_key_env"])))),
            "config \(path): api_key_env: give one of api_key, api_key_env, api_key_file, api_key_command, not api_key and api_key_env"
        ),
        (
            .configFile(path: path, .issue(ConfigIssue(key: "roles.x", problem: .roleNeedsPrompt))),
            "config \(path): roles.x: a role needs a prompt"
        ),
        (
            .configFile(path: path, .keySource(profile: "p", .variableNotSet(name: "K"))),
            "config \(path): profiles.p.api_key_env names K, which is not set"
        ),
        (
            .configFile(path: path, .keySource(profile: nil, .file(path: "/k", .missing))),
            "config \(path): api_key_file /k does not exist"
        ),
        (
            .configFile(path: path, .keySource(profile: nil, .file(path: "/k", .unreadable(reason: "Is a directory")))),
            "config \(path): api_key_file /k cannot be read: Is a directory"
        ),
        (
            .configFile(path: path, .keySource(profile: nil, .fileEmpty(path: "/k"))),
            "config \(path): api_key_file /k is empty"
        ),
        (
            .configFile(path: path, .keySource(profile: nil, .commandNotRun(reason: "could not run /bin/sh: x"))),
            "config \(path): api_key_command: could not run /bin/sh: x"
        ),
        (
            .configFile(path: path, .keySource(profile: nil, .commandFailed(status: 3))),
            "config \(path): api_key_command failed with exit status 3"
        ),
        (
            .configFile(path: path, .keySource(profile: nil, .commandPrintedNothing)),
            "config \(path): api_key_command printed nothing"
        ),
        (.badValue(name: "--model", text: "", expected: .nonEmpty), "--model needs a non-empty value"),
        (
            .badValue(name: "--temperature", text: "3", expected: .number(0...2)),
            #"--temperature expects a number from 0 to 2, got "3""#
        ),
        (
            .badValue(name: "--idle-timeout", text: "0", expected: .secondsAboveZero),
            #"--idle-timeout expects a number of seconds above 0, got "0""#
        ),
        (
            .badValue(name: "--retries", text: "21", expected: .wholeNumber(0...20)),
            #"--retries expects a whole number from 0 to 20, got "21""#
        ),
        (
            .badValue(name: "--max-tokens", text: "0", expected: .wholeNumberFrom(1)),
            #"--max-tokens expects a whole number above 0, got "0""#
        ),
        (
            .badValue(name: "--stream", text: "yes", expected: .trueOrFalse),
            #"--stream expects true or false, got "yes""#
        ),
        (
            .badValue(name: "--render", text: "x", expected: .oneOf(["auto", "always", "never"])),
            #"--render expects auto, always or never, got "x""#
        ),
        (
            .badValue(name: "--headers", text: "x", expected: .configFileOnly),
            "--headers cannot be given as text; set it in the config file"
        ),
        (.noSuchSetting(flag: "--nope", trueOrFalse: false), "--nope names no setting"),
        (.noSuchSetting(flag: "--model", trueOrFalse: true), "--model names no true-or-false setting"),
        (.noRole(name: "x", known: ["code", "shell"]), #"no role named "x" (--role); known roles: code, shell"#),
        (
            .noProfile(name: "x", chosenBy: .flag, known: ["local"]),
            #"no profile named "x" (--profile); known profiles: local"#
        ),
        (
            .noProfile(name: "x", chosenBy: .role("r", path: path), known: ["local"]),
            #"no profile named "x" (role r in \#(path)); known profiles: local"#
        ),
        (
            .noProfile(name: "x", chosenBy: .defaultProfile(path: path), known: ["local"]),
            #"no profile named "x" (default_profile in \#(path)); known profiles: local"#
        ),
        (
            .baseURLScheme(url: "ftp://x", source: .configFile(key: "base_url", path: path)),
            #"the base URL "ftp://x" (from base_url in \#(path)) must start with http:// or https://"#
        ),
        (
            .baseURLScheme(url: "x", source: .environment("OPENAI_BASE_URL")),
            #"the base URL "x" (from OPENAI_BASE_URL) must start with http:// or https://"#
        ),
        (
            .missingAPIKey(
                MissingAPIKey(
                    url: "https://api.openai.com/v1", keptKey: nil, localModelCommand: "chat-local-model start",
                    keyVariable: "OPENAI_API_KEY")),
            "no API key for https://api.openai.com/v1: set OPENAI_API_KEY (or api_key_env, api_key_file or api_key_command in the config), or use a local server: chat-local-model start, then chat --profile local"
        ),
        (
            .missingAPIKey(
                MissingAPIKey(
                    url: "https://o.example/v1", keptKey: kept, localModelCommand: "x", keyVariable: "OPENAI_API_KEY")),
            "no API key for https://o.example/v1: the API key of profile smart is only sent to https://smart.example, and --base-url goes to http://localhost:8080; set OPENAI_API_KEY for it, or give it a profile of its own with its key"
        ),
        (
            .keyOverPlainHTTP(url: "http://box/v1"),
            "refusing to send the API key over plain http to http://box/v1: use https, or allow it with --allow-insecure-http (or allow_insecure_http in the profile)"
        ),
        (
            .clientKeyWithoutCertificate(keySource: .profile("p")),
            "client_key (from profile p) needs client_cert, the certificate it belongs to"
        ),
        (
            .tlsFile(.caCertificates, path: "/ca.pem", source: .role("r"), .missing),
            "the CA file /ca.pem (from role r) does not exist"
        ),
        (
            .tlsFile(.clientKey, path: "/k.pem", source: .commandLine, .unreadable(reason: "Permission denied")),
            "the client key /k.pem (from the command line) cannot be read: Permission denied"
        ),
        (
            .tlsFile(.clientCertificate, path: "/c.pem", source: .defaultValue, .missing),
            "the client certificate /c.pem (from the default) does not exist"
        ),
    ])
    func everySettingsErrorHasItsLine(_ error: SettingsError, _ expected: String) {
        #expect(ErrorWording.line(for: error) == expected)
    }

    @Test func notesAndWarnings() {
        #expect(
            ErrorWording.line(for: .keyStaysHome(Self.kept, carriesEnvironmentKey: true))
                == "the API key of profile smart stays with https://smart.example; --base-url goes to http://localhost:8080, so the request carries OPENAI_API_KEY"
        )
        let top = KeptKey(
            owner: .topLevel(path: Self.path), homeOrigin: "https://a", requestOrigin: "http://b",
            keyVariable: "OPENAI_API_KEY")
        #expect(
            ErrorWording.line(for: .keyStaysHome(top, carriesEnvironmentKey: false))
                == "the top-level API key of \(Self.path) stays with https://a; --base-url goes to http://b, so the request carries no key"
        )
        #expect(
            ErrorWording.line(for: .keyFileReadableByOthers(path: Self.path))
                == "\(Self.path) holds an api_key and others can read it; run: chmod 600 \(Self.path)")
    }
}
