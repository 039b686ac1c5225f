import ChatDomain
import Foundation
import Testing

@testable import ChatConfig
@testable import ChatHTTP
@testable import ChatSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The key is never sent over plain http to another machine unless allowed, and files chat
/// writes are private and never written through a planted link. (End to end, with the built
/// binary: `FaultInjectionTests`.)
@Suite struct SecretsTests {
    private static let key = ["OPENAI_API_KEY": "sk-secrets-test"]

    private func withTempDir(_ body: (String) async throws -> Void) async throws {
        let path = "/tmp/chat-secrets-tests-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await body(path)
    }

    private func resolve(
        baseURL: String? = nil, allow: Bool? = nil, config: String? = nil, profile: String? = nil,
        environment: [String: String] = key
    ) async throws -> Result<ResolvedSettings, SettingsError> {
        var result: Result<ResolvedSettings, SettingsError>?
        try await withTempDir { dir in
            var overrides = SettingOverrides()
            if let baseURL { try overrides.set("base_url", text: baseURL, flag: "--base-url") }
            if let allow { try overrides.set("allow_insecure_http", allow, flag: "--allow-insecure-http") }
            overrides.profile = profile
            if let config {
                overrides.configPath = dir + "/config.json"
                try config.write(toFile: dir + "/config.json", atomically: true, encoding: .utf8)
                chmod(dir + "/config.json", 0o600)
            }
            do throws(SettingsError) {
                result = .success(try await SettingsResolver(environment: environment).resolve(overrides))
            } catch {
                result = .failure(error)
            }
        }
        return try #require(result)
    }

    private func isRefusal(_ result: Result<ResolvedSettings, SettingsError>) -> Bool {
        guard case .failure(let error) = result else { return false }
        return line(error).contains("refusing to send the API key over plain http")
    }

    // MARK: - Plain http

    @Test(arguments: [
        "http://192.0.2.1:9/v1", "http://api.example.com/v1",
        "http://192.0.2.1:9#@127.0.0.1/v1", "http://192.0.2.1:9/v1#@localhost", "http://127.0.0.1.example.com/v1",
        "http://localhost.example.com/v1", "http://[::2]/v1",
    ])
    func keyOverPlainHTTPToAnotherHostIsRefused(url: String) async throws {
        #expect(isRefusal(try await resolve(baseURL: url)))
        #expect(!SettingsResolver.isLoopback(url))
    }

    @Test(arguments: [
        "http://127.0.0.1:8080/v1", "http://127.1.2.3/v1", "http://localhost:11434/v1", "http://LOCALHOST/v1",
        "http://box.localhost/v1", "http://[::1]:8080/v1", "http://user@127.0.0.1/v1", "https://api.example.com/v1",
    ])
    func loopbackAndHTTPSNeedNoPermission(url: String) async throws {
        await #expect(throws: Never.self) { try await resolve(baseURL: url).get() }
    }

    @Test func permissionComesFromTheFlagTheProfileOrTheConfig() async throws {
        let url = "http://192.168.1.20:11434/v1"
        #expect(try await resolve(baseURL: url, allow: true).get().server.apiKey == "sk-secrets-test")
        #expect(isRefusal(try await resolve(baseURL: url, allow: false, config: #"{"allow_insecure_http": true}"#)))
        #expect(try await resolve(baseURL: url, config: #"{"allow_insecure_http": true}"#).get().server.baseURL == url)

        let profiles = """
            {"profiles": {
                "box": {"base_url": "\(url)", "api_key_env": "BOX_KEY", "allow_insecure_http": true},
                "strict": {"base_url": "\(url)", "api_key_env": "BOX_KEY"}}}
            """
        let environment = ["BOX_KEY": "sk-box"]
        let box = try await resolve(config: profiles, profile: "box", environment: environment).get()
        #expect(box.server.apiKey == "sk-box")
        #expect(isRefusal(try await resolve(config: profiles, profile: "strict", environment: environment)))
    }

    @Test func proxyHostEndsAtTheFragmentToo() {
        #expect(URLHost.of("http://192.0.2.1:9#@127.0.0.1/v1") == "192.0.2.1")
        let environment = ProxyEnvironment(environment: ["http_proxy": "http://proxy:3128", "no_proxy": "127.0.0.1"])
        #expect(environment.proxy(for: "http://192.0.2.1#@127.0.0.1/v1", configured: nil) != nil)
    }

    @Test func onlyAServerNearbyIsAskedForItsContextWindow() {
        for nearby in [
            "http://127.0.0.1:8080/v1", "http://localhost:11434/v1", "http://[::1]:8000/v1", "http://10.0.0.5/v1",
            "http://172.20.1.2:8000/v1", "http://192.168.1.9:1234/v1", "http://llama:8080/v1",
            "http://gpu-box.local:8000/v1", "http://user:pw@127.0.0.1:1/v1",
        ] {
            #expect(URLHost.isNearby(nearby), "\(nearby)")
        }
        for remote in [
            "https://api.openai.com/v1", "https://openrouter.ai/api/v1", "http://172.32.0.1/v1", "http://8.8.8.8/v1",
            "http://192.0.2.1#@127.0.0.1/v1", "not a url",
        ] {
            #expect(!URLHost.isNearby(remote), "\(remote)")
        }
    }

    // MARK: - Private files

    @Test func atomicWriteMakesAPrivateFileOverAReadableOne() async throws {
        try await withTempDir { dir in
            let path = dir + "/conversation.json"
            try "old".write(toFile: path, atomically: false, encoding: .utf8)
            chmod(path, 0o644)
            try FileSystem.writeAtomically(Array("new".utf8), to: path, mode: 0o600)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
            #expect(FileSystem.mode(path) == 0o600)
        }
    }

    @Test func atomicWriteNeverFollowsALinkAtItsTemporaryName() async throws {
        try await withTempDir { dir in
            let victim = dir + "/victim"
            try "precious".write(toFile: victim, atomically: false, encoding: .utf8)
            chmod(victim, 0o644)
            let path = dir + "/conversation.json"
            // The temporary name is predictable: the target path, ".tmp-", and the process id.
            #expect(symlink(victim, path + ".tmp-\(getpid())") == 0)

            try FileSystem.writeAtomically(Array("saved".utf8), to: path, mode: 0o600)

            #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
            #expect(FileSystem.mode(victim) == 0o644)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "saved")
            #expect(FileSystem.mode(path) == 0o600)
            var info = stat()
            #expect(lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG)
            #expect(!FileManager.default.fileExists(atPath: path + ".tmp-\(getpid())"))
        }
    }
}
