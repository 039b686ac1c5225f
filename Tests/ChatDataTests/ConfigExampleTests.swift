import Foundation
import Testing

@testable import ChatConfig
@testable import ChatJSON
@testable import ChatMCP
@testable import ChatSystem

/// `config.example.json` documents every key: it must parse, and hold each key at least once.
@Suite struct ConfigExampleTests {
    private var examplePath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("config.example.json").path
    }

    @Test func exampleConfigParses() throws {
        let bytes = try FileSystem.read(examplePath)
        let file = try ConfigFile(bytes: bytes)
        #expect(file.defaultProfile != nil)
        #expect(file.profiles["local"] != nil)
    }

    @Test func exampleLocalProfileIsTheBuiltInOne() throws {
        let file = try ConfigFile(bytes: try FileSystem.read(examplePath))
        let example = try #require(file.profiles["local"])
        let builtIn = try #require(SettingsResolver.builtInProfiles["local"])
        #expect(example == builtIn)
        #expect(example["images"] == .boolean(false))
        #expect(example["pdf"] == .text("text"))
    }

    @Test func exampleConfigShowsEveryKey() throws {
        let text = String(decoding: try FileSystem.read(examplePath), as: UTF8.self)
        for key in ConfigLevel.keys.union(["profiles", "default_profile", "roles"]).union(ConfigRole.keys) {
            #expect(text.contains("\"\(key)\":"), "config.example.json does not show \(key)")
        }
        // Each key a role may set is shown in a role.
        let file = try ConfigFile(bytes: try FileSystem.read(examplePath))
        let roles = Array(file.roles.values)
        #expect(roles.contains { $0.prompt != nil })
        #expect(roles.contains { $0.profile != nil })
        for key in ConfigRole.settingKeys {
            #expect(roles.contains { $0.level[key] != nil }, "no role in config.example.json sets \(key)")
        }
    }

    /// Its MCP servers are ones chat can use: stdio, HTTP, an era pinned, and servers signed in to
    /// by dynamic registration, with a pre-registered client, and with a client metadata document.
    @Test func exampleMCPServersAreReadWithoutAProblem() throws {
        let value = try JSONParser.parse(try FileSystem.read(examplePath))
        let servers = try #require(value["mcp_servers"])
        let read = MCPServerEntry.entries(
            in: servers, environment: ["GITHUB_TOKEN": "t", "DOCS_OAUTH_SECRET": "s"])
        #expect(read.problems.isEmpty, "\(read.problems)")
        #expect(read.entries.count == servers.object?.count)
        #expect(read.entries.contains { $0.protocolVersion == "2025-11-25" })
        let signing = read.entries.filter(\.signsIn)
        #expect(signing.contains { $0.oauth == nil && $0.clientMetadataURL == nil })
        #expect(signing.contains { $0.oauth?.clientID == "chat-cli" && $0.oauth?.clientSecret == "s" })
        #expect(signing.contains { $0.clientMetadataURL?.hasPrefix("https://") == true })
    }
}
