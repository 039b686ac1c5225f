import ChatDomain
import Testing

@testable import ChatData

@Suite("mcp_servers entries")
struct MCPServerEntryConfigTests {
    private func entries(_ json: String, _ environment: [String: String] = [:]) throws -> (
        entries: [MCPServerEntry], problems: [MCPFailure]
    ) {
        MCPServerEntry.entries(in: try JSONParser.parse(json), environment: environment)
    }

    @Test("the Claude Desktop shape, with ${VAR} from the environment")
    func claudeDesktopShape() throws {
        let read = try entries(
            #"""
            {"time": {"command": "uvx", "args": ["mcp-server-time", "--local-timezone=${TZ}"]},
             "git": {"command": "${HOME}/bin/git-mcp", "env": {"TOKEN": "${GIT_TOKEN}", "MODE": "ro"}, "timeout": 5}}
            """#, ["TZ": "UTC", "HOME": "/home/p", "GIT_TOKEN": "s3cret"])
        #expect(read.problems.isEmpty)
        #expect(
            read.entries == [
                MCPServerEntry(
                    name: "git", command: "/home/p/bin/git-mcp", environment: ["TOKEN": "s3cret", "MODE": "ro"],
                    callTimeout: 5),
                MCPServerEntry(name: "time", command: "uvx", arguments: ["mcp-server-time", "--local-timezone=UTC"]),
            ])
    }

    @Test("a server that cannot be used is left out with a line naming it, never a value")
    func problems() throws {
        let read = try entries(
            #"""
            {"a": {"args": []}, "b": {"command": "x", "args": [1]}, "c": {"command": "x", "env": {"K": "${MISSING}"}},
             "d": {"url": "https://example.invalid/mcp"}, "e": {"command": "x", "timeout": -1}, "f": {"command": "ok"}}
            """#)
        #expect(read.entries.map(\.name) == ["f"])
        #expect(
            read.problems.map(\.message) == [
                #"MCP server "a": its entry has no command"#, #"MCP server "b": args must be a list of strings"#,
                #"MCP server "c": ${MISSING} is used but not set in the environment"#,
                #"MCP server "d": Streamable HTTP servers (url) are not supported yet"#,
                #"MCP server "e": timeout must be a number of seconds above 0"#,
            ])
        #expect(try entries("[]").problems.count == 1)
    }

    @Test("${ without a closing brace is left as it is")
    func unclosed() throws {
        #expect(try MCPServerEntry.expand("a${B", [:]) == "a${B")
        #expect(try MCPServerEntry.expand("${A}-${A}", ["A": "x"]) == "x-x")
    }
}
