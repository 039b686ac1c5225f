import ChatTestSupport
import Foundation
import Testing

/// `chat --tools-list` with servers of both eras, through the binary: each server's protocol
/// version as the version string, the prompts (and with `--json` one object per prompt with no
/// `tool` key, each tool's row with its `protocol_version`), the era remembered across runs in the
/// data directory (even with `--no-history`), and exit 1 when a server asked for could not be
/// listed.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ToolsListErasCommandTests {
    /// A config with the tests' own modern-only server over stdio (logging to `log`) as `modern`,
    /// and `mcp-server-time` pinned to the initialize era as `time`.
    private func config(_ chat: ChatBinary, log: String, extra: String = "") throws -> String {
        let python = try MCPTestServers.python.get()
        let time = try MCPTestVenv.timeServer.get()
        return try chat.writeConfig(
            """
            {"mcp_servers": {
              "modern": {"command": "\(python)", "args": ["\(MCPTestServers.script("modern_only.py"))", "stdio", "\(log)"]},
              "time": {"command": "\(time)", "args": ["--local-timezone", "UTC"], "protocol_version": "2025-11-25"}\(extra)}}
            """)
    }

    @Test func eachServerShowsTheVersionSpokenAndTheEraIsRememberedAcrossRuns() async throws {
        let chat = ChatBinary()
        let log = MCPTestServers.logPath()
        let config = try config(chat, log: log)
        let first = try await chat.run(["--config", config, "--no-history", "--tools-list"], timeout: 90)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr == "")
        #expect(first.stdout.contains("modern (MCP 2026-07-28)\n"), "\(first.stdout)")
        #expect(first.stdout.contains("time (MCP 2025-11-25)\n"), "\(first.stdout)")
        #expect(first.stdout.contains("    greet(who)  A greeting.\n"), "\(first.stdout)")
        #expect(first.stdout.contains("get_current_time"), "\(first.stdout)")

        let json = try await chat.run(["--config", config, "--tools-list", "--json"], timeout: 90)
        #expect(json.status == 0, "\(json.stderr)")
        let rows = json.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let tools = rows.filter { $0["tool"] != nil }
        let prompts = rows.filter { $0["prompt"] != nil }
        #expect(tools.first { $0["tool"] as? String == "ask" }?["protocol_version"] as? String == "2026-07-28")
        #expect(
            tools.first { $0["tool"] as? String == "get_current_time" }?["protocol_version"] as? String == "2025-11-25")
        #expect(prompts.map { $0["prompt"] as? String } == ["greet", "second", "third"])
        #expect(prompts.allSatisfy { $0["tool"] == nil && $0["server"] as? String == "modern" })
        let arguments = try #require(prompts.first?["arguments"] as? [[String: Any]])
        #expect(arguments.first?["name"] as? String == "who" && arguments.first?["required"] as? Bool == true)

        // The first run probed (with --no-history all the same); the second went straight to it.
        let discovers = modernOnlyLog(log).filter { $0["method"] as? String == "server/discover" }
        #expect(discovers.count == 1, "\(modernOnlyLog(log).map { $0["method"] ?? "" })")
        #expect(!modernOnlyLog(log).contains { $0["method"] as? String == "initialize" })
        let memory = chat.home + "/data/chat/mcp-eras.json"
        let attributes = try FileManager.default.attributesOfItem(atPath: memory)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func aServerThatCouldNotBeListedIsOneLineAndExit1() async throws {
        let chat = ChatBinary()
        let log = MCPTestServers.logPath()
        let config = try config(chat, log: log, extra: #", "broken": {"command": "/nonexistent/mcp-server"}"#)
        let listed = try await chat.run(["--config", config, "--tools-list"], timeout: 90)
        #expect(listed.status == 1, "\(listed.stderr)")
        #expect(listed.stdout.contains("modern (MCP 2026-07-28)\n"), "\(listed.stdout)")
        #expect(listed.stderr.split(separator: "\n").count == 1, "\(listed.stderr)")
        #expect(listed.stderr.contains("\"broken\""), "\(listed.stderr)")
        // Only the servers asked for: the two that work, and 0.
        let two = try await chat.run(["--config", config, "--tools-list", "-T", "modern,time"], timeout: 90)
        #expect(two.status == 0, "\(two.stderr)")
        #expect(two.stderr == "")
    }
}
