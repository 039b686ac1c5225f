import ChatDomain
import ChatPresentation
import Testing

@testable import ChatJSON
@testable import ChatMCP

@Suite("mcp_servers entries")
struct MCPServerEntryConfigTests {
    private func entries(_ json: String, _ environment: [String: String] = [:]) throws -> (
        entries: [MCPServerEntry], problems: [String]
    ) {
        let read = MCPServerEntry.entries(in: try JSONParser.parse(json), environment: environment)
        return (read.entries, read.problems.map(ErrorWording.line(for:)))
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
        #expect(read.entries.map(\.name) == ["d", "f"])
        #expect(
            read.problems == [
                #"MCP server "a": its entry has no command"#, #"MCP server "b": args must be a list of strings"#,
                #"MCP server "c": ${MISSING} is used but not set in the environment"#,
                #"MCP server "e": timeout must be a number of seconds above 0"#,
            ])
        #expect(try entries("[]").problems.count == 1)
    }

    @Test("Streamable HTTP: url and headers, with ${VAR}; a problem line never holds a value")
    func httpEntries() throws {
        let read = try entries(
            #"""
            {"web": {"url": "https://${HOST}/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}, "timeout": 9},
             "a": {"url": 5}, "b": {"url": "ftp://x/y"}, "c": {"url": "https://x", "headers": {"K": "${UNSET}"}},
             "d": {"url": "https://x", "headers": ["Bearer s3cret"]}, "e": {"url": "https://x", "command": "y"},
             "f": {"url": "https://x", "headers": {"X": "${NL}"}}}
            """#, ["HOST": "example.com", "TOKEN": "s3cret", "NL": "a\r\nInjected: s3cret"])
        #expect(
            read.entries == [
                MCPServerEntry(
                    name: "web", url: "https://example.com/mcp", headers: ["Authorization": "Bearer s3cret"],
                    callTimeout: 9)
            ])
        #expect(
            read.problems == [
                #"MCP server "a": url must be a string"#, #"MCP server "b": url must start with http:// or https://"#,
                #"MCP server "c": ${UNSET} is used but not set in the environment"#,
                #"MCP server "d": headers must be an object of strings"#,
                #"MCP server "e": its entry has both a command and a url"#,
                #"MCP server "f": a header name or value holds a line break"#,
            ])
        #expect(!read.problems.contains { $0.contains("s3cret") })
    }

    @Test("${ without a closing brace is left as it is")
    func unclosed() throws {
        #expect(try MCPServerEntry.expand("a${B", [:]) == "a${B")
        #expect(try MCPServerEntry.expand("${A}-${A}", ["A": "x"]) == "x-x")
    }
}
