import ChatDomain
import ChatHTTP
import ChatSystem
import Dispatch

/// Where the API key comes from, and the rule that keeps a configured key with its own server.
///
/// A key from the config (`api_key`, `api_key_env`, `api_key_file`, `api_key_command`, in a
/// profile or at the top) belongs to the origin of the base URL the run would use without flags
/// (a profile's own `base_url`, if it has one). When `--base-url` moves the request to another
/// origin, that key stays home (it is not even read) and the request carries `OPENAI_API_KEY` if
/// set, or no key; a note says so. A profile that sets its own `base_url` gets only the key that
/// profile names, never `OPENAI_API_KEY` or a top-level key.
///
/// The environment's key is the provider's own (`ProviderKind.keyVariable`): `ANTHROPIC_API_KEY`
/// goes only to Anthropic-provider requests, `OPENAI_API_KEY` never does. An Anthropic-provider
/// profile that names no key gets `ANTHROPIC_API_KEY`, its own `base_url` or not; a top-level key
/// goes only to requests of the provider the top level names (OpenAI's when it names none).
struct APIKeySource {
    /// Where the key is read from.
    enum Origin {
        /// A level of the config: a profile (by name), or the top level (nil).
        case level(ConfigLevel, profile: String?)
        /// The provider's key variable (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`), trimmed.
        case environment(String)
        case none
    }

    /// Where the key is read from for this request.
    private(set) var origin: Origin
    /// The configured key left at home, when `--base-url` moved the request to another origin.
    private(set) var kept: KeptKey?
    /// The environment variable the provider's key is read from.
    private let keyVariable: String

    /// The source for a request to `url`; `home` is the base URL without the command line's.
    init(
        provider: ProviderKind = .openAI, profile: ConfigLevel?, profileName: String?, top: ConfigLevel,
        topKeyApplies: Bool = true, environmentKey: String?, configPath: String, home: String, url: String,
        urlFromFlag: Bool
    ) {
        keyVariable = provider.keyVariable
        if let profile, profile.hasKeySource {
            origin = .level(profile, profile: profileName ?? "")
        } else if let profile, profile["base_url"] != nil, provider.isOpenAIs {
            origin = .none  // its own server: never another's key
        } else if let environmentKey {
            origin = .environment(environmentKey)
        } else if top.hasKeySource, topKeyApplies {
            origin = .level(top, profile: nil)
        } else {
            origin = .none
        }
        guard urlFromFlag, URLOrigin(url) != URLOrigin(home) else { return }
        if case .level(_, let profile) = origin {
            kept = KeptKey(
                owner: profile.map(KeptKey.Owner.profile) ?? .topLevel(path: configPath),
                homeOrigin: URLOrigin(home)?.description ?? home, requestOrigin: URLOrigin(url)?.description ?? url,
                keyVariable: keyVariable)
        }
        if case .environment = origin {} else { origin = environmentKey.map(Origin.environment) ?? .none }
    }

    /// The key, read now (a file read; a command run on a thread of its own, so that waiting for
    /// it does not hold a thread of Swift's cooperative pool).
    func read(environment: [String: String], configPath: String) async throws(SettingsError) -> String? {
        switch origin {
        case .environment(let key): return key
        case .none: return nil
        case .level(let level, let profile):
            do throws(KeySourceProblem) {
                return try await Self.key(from: level, environment: environment)
            } catch {
                throw .configFile(path: configPath, .keySource(profile: profile, error))
            }
        }
    }

    /// What follows from the key read: a note when a configured key stayed home; an error when a
    /// server that needs a key has none, or when the key would go over plain http to another
    /// machine without `allow_insecure_http`.
    func check(key: String?, url: String, allowInsecure: Bool, localModelCommand: () -> String) throws(SettingsError)
        -> [SettingsNote]
    {
        let loopback = SettingsResolver.isLoopback(url)
        if key == nil && !loopback {
            throw .missingAPIKey(
                MissingAPIKey(
                    url: url, keptKey: kept, localModelCommand: localModelCommand(), keyVariable: keyVariable))
        }
        if key != nil && url.lowercased().hasPrefix("http://") && !loopback && !allowInsecure {
            throw .keyOverPlainHTTP(url: url)
        }
        guard let kept else { return [] }
        return [.keyStaysHome(kept, carriesEnvironmentKey: key != nil)]
    }

    private static func key(from level: ConfigLevel, environment: [String: String]) async throws(KeySourceProblem)
        -> String?
    {
        if let key = level["api_key"]?.text {
            return key.trimmingASCIIWhitespace()
        }
        if let name = level["api_key_env"]?.text {
            guard let value = environment[name] else { throw .variableNotSet(name: name) }
            guard !value.trimmingASCIIWhitespace().isEmpty else { throw .variableBlank(name: name) }
            return value.trimmingASCIIWhitespace()
        }
        if let path = level["api_key_file"]?.text {
            let expanded = FileSystem.expandingTilde(path, home: environment["HOME"])
            let bytes: [UInt8]
            do throws(FileSystem.ReadError) {
                bytes = try FileSystem.read(expanded)
            } catch {
                throw .file(path: expanded, FileProblem(error))
            }
            let key = String(decoding: bytes, as: UTF8.self).trimmingASCIIWhitespace()
            guard !key.isEmpty else { throw .fileEmpty(path: expanded) }
            return key
        }
        if let command = level["api_key_command"]?.text {
            let status: Int32
            let output: [UInt8]
            switch await runOffThePool(command) {
            case .success(let result): (status, output) = result
            case .failure(let failure): throw .commandNotRun(reason: failure.message)
            }
            guard status == 0 else { throw .commandFailed(status: status) }
            let key = String(decoding: output, as: UTF8.self).trimmingASCIIWhitespace()
            guard !key.isEmpty else { throw .commandPrintedNothing }
            return key
        }
        return nil
    }

    /// Runs `command` on a queue of its own; its wait for the command (`waitpid`) holds that
    /// queue's thread, not one of the cooperative pool's.
    private static func runOffThePool(_ command: String) async -> Result<
        (status: Int32, output: [UInt8]), ShellCommand.Failure
    > {
        await withCheckedContinuation { continuation in
            DispatchQueue(label: "chat.api-key-command").async {
                continuation.resume(
                    returning: Result { () throws(ShellCommand.Failure) in try ShellCommand.run(command) })
            }
        }
    }
}
