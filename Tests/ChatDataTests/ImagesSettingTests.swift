import ChatDomain
import Foundation
import Testing

@testable import ChatConfig

/// `images`: whether the profile's model takes images. True by default, false for the built-in
/// `local` profile (its llama.cpp server has no vision model), set at the top level or in a
/// profile; not in a role, which chooses a profile for a model that takes them or not.
@Suite struct ImagesSettingTests {
    private func config(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("images-\(UUID()).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func resolve(configPath: String? = nil, profile: String? = nil, role: String? = nil)
        async throws(SettingsError) -> ResolvedSettings
    {
        var overrides = SettingOverrides()
        overrides.configPath = configPath
        overrides.profile = profile
        overrides.role = role
        return try await SettingsResolver(environment: ["OPENAI_API_KEY": "sk-x", "HOME": "/nonexistent"]).resolve(
            overrides)
    }

    @Test func trueByDefaultAndFalseForTheBuiltInLocalProfile() async throws {
        #expect(try await resolve().server.takesImages)
        #expect(try await !resolve(profile: "local").server.takesImages)
    }

    @Test func theTopLevelOrAProfileSetsIt() async throws {
        let path = try config(
            #"{"images": false, "profiles": {"vision": {"images": true}, "plain": {}, "local": {"images": true}}}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try await !resolve(configPath: path).server.takesImages)
        #expect(try await resolve(configPath: path, profile: "vision").server.takesImages)
        #expect(try await !resolve(configPath: path, profile: "plain").server.takesImages)
        // A config's `local` profile adds to the built-in one: a vision model served locally.
        #expect(try await resolve(configPath: path, profile: "local").server.takesImages)
    }

    @Test func aRoleCannotSetItButItsProfileDoes() async throws {
        let refused = try config(#"{"roles": {"look": {"prompt": "Describe.", "images": false}}}"#)
        defer { try? FileManager.default.removeItem(atPath: refused) }
        do throws(SettingsError) {
            _ = try await resolve(configPath: refused, role: "look")
            Issue.record("a role's images was accepted")
        } catch {
            #expect(line(error).hasPrefix("config \(refused): roles.look.images: unknown key (a role holds prompt, "))
        }
        let viaProfile = try config(
            #"{"profiles": {"text": {"images": false}}, "roles": {"look": {"prompt": "Describe.", "profile": "text"}}}"#
        )
        defer { try? FileManager.default.removeItem(atPath: viaProfile) }
        #expect(try await !resolve(configPath: viaProfile, role: "look").server.takesImages)
    }

    @Test func aValueThatIsNotTrueOrFalseIsOneErrorNamingTheKey() async throws {
        let path = try config(#"{"profiles": {"p": {"images": "no"}}}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do throws(SettingsError) {
            _ = try await resolve(configPath: path, profile: "p")
            Issue.record("images: \"no\" was accepted")
        } catch {
            let said: String = line(error)
            #expect(said.hasPrefix("config \(path): profiles.p.images: expected true or false"), "\(said)")
        }
    }
}
