import ChatDomain
import ChatPresentation
import Foundation
import Testing

@testable import ChatConfig
@testable import ChatJSON
@testable import ChatMCP

/// The tool settings: `mcp_servers` (top level), `tools` (top level, profile, role, `-T`),
/// `--no-tools`, `auto_approve` and `--yes-tools`, the loop's limits, and the errors.
@Suite struct ToolSettingsTests {
    private let directory = NSTemporaryDirectory() + "chat-tools-\(UUID().uuidString)"

    private static let file = """
        {
          "base_url": "http://127.0.0.1:1/v1",
          "mcp_servers": {
            "time": {"command": "mcp-server-time", "auto_approve": ["get_current_time"]},
            "git": {"command": "mcp-server-git", "auto_approve": true},
            "web": {"command": "mcp-server-fetch"}
          },
          "profiles": {"work": {"tools": ["git"], "max_tool_rounds": 3}},
          "roles": {"clock": {"prompt": "Tell the time.", "tools": ["time"]}}
        }
        """

    private func resolve(
        _ json: String = Self.file, _ configure: (inout SettingOverrides) throws -> Void = { _ in }
    ) async throws -> ResolvedSettings {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/config.json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        var overrides = SettingOverrides()
        overrides.configPath = path
        try configure(&overrides)
        return try await SettingsResolver(environment: [:]).resolve(overrides)
    }

    private func failure(
        _ json: String = Self.file, _ configure: (inout SettingOverrides) throws -> Void
    ) async throws -> String? {
        do {
            _ = try await resolve(json, configure)
            return nil
        } catch let error as SettingsError {
            return ErrorWording.line(for: error)
        }
    }

    @Test func withServersConfiguredButNoneChosenToolsAreOff() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let tools = try await resolve().tools
        #expect(!tools.isOn)
        #expect(tools.servers == nil)
        #expect(tools.configured == ["git", "time", "web"])
        #expect(tools.roundLimit == 10)
        #expect(tools.maxResultBytes == 100_000)
        // auto_approve is read all the same: the REPL's /tools SERVER may turn a server on.
        #expect(tools.approved["time"] == .tools(["get_current_time"]))
        #expect(tools.approved["git"] == .all)
    }

    @Test func theFlagTheProfileAndTheRoleChooseServers() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let flag = try await resolve { try $0.set("tools", text: "time, web", flag: "--tools") }.tools
        #expect(flag.servers == ["time", "web"])
        #expect(flag.isOn)
        #expect(flag.approved == ["time": .tools(["get_current_time"]), "git": .all])
        let profile = try await resolve { $0.profile = "work" }.tools
        #expect(profile.servers == ["git"])
        #expect(profile.roundLimit == 3)
        let role = try await resolve { $0.role = "clock" }.tools
        #expect(role.servers == ["time"])
        let off = try await resolve {
            try $0.set("tools", text: "time", flag: "--tools")
            $0.noTools = true
        }.tools
        #expect(!off.isOn)
        let limits = try await resolve(
            Self.file.replacingOccurrences(
                of: "\"base_url\"", with: "\"max_tool_rounds\": 2, \"max_tool_result_bytes\": 500, \"base_url\"")
        ) { try $0.set("max_tool_rounds", text: "4", flag: "--max-tool-rounds") }.tools
        #expect(limits.roundLimit == 4)
        #expect(limits.maxResultBytes == 500)
    }

    @Test func yesToolsApprovesAServerOrOneTool() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let tools = try await resolve {
            try $0.set("tools", text: "time,web", flag: "--tools")
            $0.yesTools = ["web", "time.convert_time"]
        }.tools
        #expect(tools.approved["web"] == .all)
        #expect(tools.approved["time"] == .tools(["get_current_time", "convert_time"]))
        #expect(ToolSettings.split("a.b.c") == ("a", "b.c"))
        // A server whose name holds a dot: the longest configured name wins.
        let configured = ["docs", "docs.internal"]
        #expect(ToolSettings.split("docs.internal", configured: configured) == ("docs.internal", nil))
        #expect(ToolSettings.split("docs.internal.search", configured: configured) == ("docs.internal", "search"))
        #expect(ToolSettings.split("docs.search", configured: configured) == ("docs", "search"))
    }

    @Test func anUnknownServerIsOneLineNamingTheKnownOnes() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(
            try await failure { try $0.set("tools", text: "tme", flag: "--tools") }
                == "no MCP server named \"tme\" (from --tools); did you mean time? configured servers: git, time, web")
        #expect(
            try await failure {
                $0.yesTools = ["gti.status"]
                $0.yesToolsSource = .flag("--yes-tools")
            }
                == "no MCP server named \"gti\" (from --yes-tools); did you mean git? configured servers: git, time, web"
        )
        let fromFile = try await failure(
            Self.file.replacingOccurrences(of: "\"base_url\"", with: "\"tools\": [\"nothing\"], \"base_url\"")
        ) { _ in }
        #expect(fromFile?.hasPrefix("no MCP server named \"nothing\" (from tools in ") == true, "\(fromFile ?? "")")
        #expect(fromFile?.hasSuffix("; configured servers: git, time, web") == true)
        let none = try await failure(#"{"base_url": "http://127.0.0.1:1/v1"}"#) {
            try $0.set("tools", text: "time", flag: "--tools")
        }
        #expect(none == "no MCP server named \"time\" (from --tools): the config has no mcp_servers")
    }

    @Test func badShapesAreNamed() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        expectIssue(
            #"{"mcp_servers": []}"#, key: "mcp_servers", problem: "expected an object of servers by name, got an array")
        expectIssue(#"{"tools": "time"}"#, key: "tools", problem: "expected a list of strings, got a string")
        expectIssue(#"{"tools": ["a", 1]}"#, key: "tools", problem: "expected a list of strings, got a number")
        expectIssue(
            #"{"max_tool_rounds": 0}"#, key: "max_tool_rounds",
            problem: "expected a whole number of at least 1, got 0.0")
        var overrides = SettingOverrides()
        #expect(throws: SettingsError.self) { try overrides.set("tools", text: " , ", flag: "--tools") }
        let approvals = MCPServerEntry.approvals(
            in: try JSONParser.parse(#"{"a": {"command": "x", "auto_approve": "yes"}, "b": {"auto_approve": false}}"#))
        #expect(approvals.approvals.isEmpty)
        #expect(
            approvals.problems.map(ErrorWording.line(for:)) == [
                "MCP server \"a\": auto_approve must be true or a list of its tool names; its tools will be asked about"
            ])
    }
}
