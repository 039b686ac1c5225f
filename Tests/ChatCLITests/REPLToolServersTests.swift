import ChatTestSupport
import Foundation
import Testing

/// The tool servers from the REPL, its lines piped (`-i`): `/tools` over every configured server
/// and turning one on or off mid-conversation; prompts and resources of a server written with the
/// `mcp` SDK; the resource tools the model gets; a server's question with no terminal to ask on.
@Suite(.serialized, .timeLimit(.minutes(4)))
struct REPLToolServersTests {
    private func answering() throws -> LoopbackServer {
        try LoopbackServer { _, index in
            ServerStep.sse([ServerStep.chatChunk("answer \(index + 1)"), ServerStep.finishChunk()])
        }
    }

    /// The tools offered in request `index`, by name.
    private func offeredTools(_ server: LoopbackServer, _ index: Int) throws -> [String] {
        let body = try #require(
            try JSONSerialization.jsonObject(with: Data(try server.request(index).body)) as? [String: Any])
        let tools = body["tools"] as? [[String: Any]] ?? []
        return tools.compactMap { ($0["function"] as? [String: Any])?["name"] as? String }
    }

    @Test func withoutTToolsListsEveryConfiguredServerAndTurnsOneOnThenOff() async throws {
        let chat = ChatBinary()
        let marker = chat.home + "/started"
        let config = try timeConfig(
            chat, extra: #", "mark": {"command": "/bin/sh", "args": ["-c", "touch \#(marker)"]}"#)
        let server = try answering()
        defer { server.stop() }
        let result = try await chat.run(
            ["--config", config, "--base-url", server.baseURL, "-i"],
            input: "/tools\nfirst\n/tools time\n/tools\nsecond\n/tools off time\nthird\n/tools web\n", timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("no tools this run"), "\(result.stderr)")
        // Every configured server is listed; the one never turned on never started.
        #expect(result.stdout.contains("mark (off: /tools mark)"), "\(result.stdout)")
        #expect(result.stdout.contains("time (off: /tools time)"), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: marker))
        let logs = chat.home + "/data/chat/mcp"
        #expect(try FileManager.default.contentsOfDirectory(atPath: logs) == ["time.log"])
        // Turned on, it started then: its version and its tools said, listed, and offered.
        #expect(result.stderr.contains("tools of time: on (MCP 20"), "\(result.stderr)")
        #expect(result.stdout.contains("time (on, MCP 20"), "\(result.stdout)")
        #expect(result.stdout.contains("get_current_time"), "\(result.stdout)")
        #expect(server.requests.count == 3)
        #expect(try offeredTools(server, 0) == [])
        #expect(try offeredTools(server, 1).contains("time__get_current_time"))
        // It declares resources and has none: the model gets no resource tools from it.
        #expect(!(try offeredTools(server, 1).contains("time__list_resources")))
        // Turned off, its tools are no longer offered.
        #expect(result.stderr.contains("tools of time: off"), "\(result.stderr)")
        #expect(try offeredTools(server, 2) == [])
        #expect(result.stderr.contains("no MCP server named web in the config; its servers: mark, time"))
    }

    @Test func aServerThatCannotStartIsSaidAndStaysOffAndOneThatCanSaysWhatItHas() async throws {
        let chat = ChatBinary()
        let config = try demoServerConfig(
            chat, extra: #", "broken": {"command": "/bin/sh", "args": ["-c", "exit 3"]}"#)
        let server = try answering()
        defer { server.stop() }
        let result = try await chat.run(
            ["--config", config, "--base-url", server.baseURL, "-i"],
            input: "/tools broken\n/tools demo\n/tools\n", timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("chat: warning: MCP server \"broken\": "), "\(result.stderr)")
        #expect(result.stderr.contains("MCP server broken could not be used; its tools stay off"), "\(result.stderr)")
        #expect(result.stdout.contains("broken (off: /tools broken)"), "\(result.stdout)")
        // reserve, connect and link, and the two resource tools.
        #expect(
            result.stderr.contains(
                "tools of demo: on (MCP 2026-07-28, 5 tools, 2 prompts: /prompts, 2 resources: /resources demo)"),
            "\(result.stderr)")
    }

    @Test func noToolsKeepsTheREPLFromTurningServersOn() async throws {
        let chat = ChatBinary()
        let config = try timeConfig(chat)
        let server = try answering()
        defer { server.stop() }
        let result = try await chat.run(
            ["--config", config, "--base-url", server.baseURL, "--no-tools", "-i"], input: "/tools time\nhello\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("chat: error: tools are off this run (--no-tools)"), "\(result.stderr)")
        #expect(!(try server.request(0)).bodyText.contains("\"tools\""))
    }

    /// A REPL whose config lists servers and that turns none on starts none, and leaves no trace
    /// of them (not even their logs' directory).
    @Test func aREPLThatTurnsNoServerOnStartsNone() async throws {
        let chat = ChatBinary()
        let marker = chat.home + "/started"
        let config = try chat.writeConfig(
            #"{"mcp_servers": {"mark": {"command": "/bin/sh", "args": ["-c", "touch \#(marker)"]}}}"#)
        let server = try answering()
        defer { server.stop() }
        let result = try await chat.run(
            ["--config", config, "--base-url", server.baseURL, "-i"], input: "hello\n/prompts\n/resources\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "answer 1\n", "\(result.stdout)")
        #expect(result.stderr.contains("no MCP server is on: /tools SERVER turns one on"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker))
        #expect(!FileManager.default.fileExists(atPath: chat.home + "/data/chat/mcp"))
        #expect(!(try server.request(0)).bodyText.contains("\"tools\""))
    }

    @Test func promptsAreListedAndSentAsTheNextQuestionTextAndImages() async throws {
        let chat = ChatBinary()
        let config = try demoServerConfig(chat)
        let server = try answering()
        defer { server.stop() }
        let input = """
            /prompts
            /prompt demo.review_code code="print(1)" language=Swift
            /prompt demo.describe_pixel
            /prompt demo.review_code
            /prompt demo.nothing
            /prompt demo.review_code code=x colour=red

            """
        let result = try await chat.run(
            ["--config", config, "--base-url", server.baseURL, "-T", "demo", "-i"], input: input, timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("demo.review_code code=… [language=…]  Review a piece of code."))
        #expect(result.stdout.contains("demo.describe_pixel  Describe a pixel."))
        #expect(server.requests.count == 2, "\(result.stderr)")
        let first = try sentMessages(try server.request(0))
        #expect(first.last?["content"] as? String == "Please review this Swift code:\n\nprint(1)")
        // The second prompt's text and its image, as one question.
        let second = try #require(try sentMessages(try server.request(1)).last?["content"] as? [[String: Any]])
        #expect(second.first?["text"] as? String == "What colour is this pixel?")
        let image = try #require(second.last?["image_url"] as? [String: Any])
        #expect((image["url"] as? String)?.hasPrefix("data:image/png;base64,iVBORw0KGgo") == true)
        // With no terminal, a required argument not given is said, not asked.
        #expect(result.stderr.contains("prompt demo.review_code needs code: give it as code=VALUE"))
        #expect(result.stderr.contains("MCP server demo offers no prompt named nothing; its prompts: "))
        #expect(result.stderr.contains("takes no argument colour; its arguments: code, language"))
    }

    @Test func resourcesAreListedAndAttachedAsFileIsTextAndImages() async throws {
        let chat = ChatBinary()
        let config = try demoServerConfig(chat, pinned: "2025-11-25")
        let server = try answering()
        defer { server.stop() }
        let input = """
            /resources
            /resource demo config://app
            /resource demo image://pixel
            /resource demo notes://shopping
            /files
            what are these?
            /resource demo nowhere://at-all

            """
        let result = try await chat.run(
            ["--config", config, "--base-url", server.baseURL, "-T", "demo", "-i"], input: input, timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains("config://app  app_config, text/plain  The app configuration."), "\(result.stdout)")
        #expect(result.stdout.contains("image://pixel  pixel, image/png  A red pixel."), "\(result.stdout)")
        #expect(result.stdout.contains("notes://{name}  note, text/plain  A note by name."), "\(result.stdout)")
        #expect(result.stderr.contains("attached config://app to the next message (1 file in all"), "\(result.stderr)")
        #expect(result.stderr.contains("attached notes://shopping to the next message (3 files in all"))
        #expect(server.requests.count == 1)
        let sent = try #require(try sentMessages(try server.request(0)).last?["content"] as? [[String: Any]])
        let text = try #require(sent.first?["text"] as? String)
        #expect(text.hasPrefix("what are these?"))
        #expect(text.contains("theme=dark"))
        #expect(text.contains("note shopping"))
        #expect(sent.contains { ($0["image_url"] as? [String: Any]) != nil })
        // The model gets the list and read tools of a server with resources.
        let offered = try offeredTools(server, 0)
        #expect(offered.contains("demo__list_resources") && offered.contains("demo__read_resource"), "\(offered)")
        #expect(result.stderr.contains("the resource nowhere://at-all of demo: "), "\(result.stderr)")
    }

    @Test(arguments: ["2025-11-25", "2026-07-28"])
    func theModelReadsAResourceWithItsTool(era: String) async throws {
        let chat = ChatBinary()
        let config = try demoServerConfig(chat, pinned: era)
        let server = try LoopbackServer { request, index in
            request.bodyText.contains(#""role":"tool""#)
                ? ServerStep.sse([ServerStep.chatChunk("Dark."), ServerStep.finishChunk()])
                : toolCallAnswer("demo__read_resource", arguments: #"{"uri": "config://app"}"#, id: "call_\(index)")
        }
        defer { server.stop() }
        let result = try await chat.run(
            ["--config", config, "--base-url", server.baseURL, "-T", "demo", "--yes-tools", "demo", "theme?"],
            timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Dark.\n")
        #expect(result.stderr.contains("⚙ demo.resources/read"), "\(result.stderr)")
        let tool = try #require(try sentMessages(try server.request(1)).last { $0["role"] as? String == "tool" })
        #expect(tool["content"] as? String == "theme=dark")
    }

    /// `--tools-list` lists the prompts under the tools: in text, with their arguments; with
    /// `--json`, one object a prompt (no `tool` key), the tools' rows with `protocol_version`.
    @Test func toolsListListsThePromptsToo() async throws {
        let chat = ChatBinary()
        let config = try demoServerConfig(chat, pinned: "2025-11-25")
        let text = try await chat.run(["--config", config, "--tools-list"], timeout: 60)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(
            text.stdout.contains("  prompts:\n    review_code(code, language?)  Review a piece of code.\n"),
            "\(text.stdout)")
        let json = try await chat.run(["--config", config, "--tools-list", "--json"], timeout: 60)
        #expect(json.status == 0, "\(json.stderr)")
        let rows = try json.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let reserve = try #require(rows.first { $0["tool"] as? String == "reserve" })
        #expect(reserve["protocol_version"] as? String == "2025-11-25")
        let prompt = try #require(rows.first { $0["prompt"] as? String == "review_code" })
        #expect(prompt["server"] as? String == "demo")
        #expect(prompt["tool"] == nil)
        #expect(prompt["description"] as? String == "Review a piece of code.")
        let arguments = try #require(prompt["arguments"] as? [[String: Any]])
        #expect(arguments.map { $0["name"] as? String } == ["code", "language"])
        #expect(arguments.map { $0["required"] as? Bool } == [true, false])
        #expect(rows.contains { $0["prompt"] as? String == "describe_pixel" })
    }

    /// A `resource_link` in a tool's result reaches the model as the link and its description,
    /// not fetched.
    @Test func aResourceLinkReachesTheModelAsTheLinkNotFetched() async throws {
        let chat = ChatBinary()
        let config = try demoServerConfig(chat)
        let server = try LoopbackServer { request, index in
            request.bodyText.contains(#""role":"tool""#)
                ? ServerStep.sse([ServerStep.chatChunk("Linked."), ServerStep.finishChunk()])
                : toolCallAnswer("demo__link", arguments: "{}", id: "call_\(index)")
        }
        defer { server.stop() }
        let result = try await chat.run(
            ["--config", config, "--base-url", server.baseURL, "-T", "demo", "--yes-tools", "demo", "link?"],
            timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let tool = try #require(try sentMessages(try server.request(1)).last { $0["role"] as? String == "tool" })
        #expect(
            tool["content"] as? String
                == "[a link to a resource, not fetched: config://app (app_config, text/plain): The app configuration.]")
    }

    /// Off a terminal, and under --json, a server's question is declined: one line on stderr names
    /// the server and what it asked, and the tool goes on without the answer; in both eras.
    @Test(arguments: [("2025-11-25", false), ("2026-07-28", false), ("2026-07-28", true)])
    func aServersQuestionWithNoTerminalIsDeclinedInOneLine(era: String, json: Bool) async throws {
        let chat = ChatBinary()
        let config = try demoServerConfig(chat, pinned: era)
        let server = try LoopbackServer { request, index in
            request.bodyText.contains(#""role":"tool""#)
                ? ServerStep.sse([ServerStep.chatChunk("Done."), ServerStep.finishChunk()])
                : toolCallAnswer("demo__reserve", arguments: #"{"title": "Dune"}"#, id: "call_\(index)")
        }
        defer { server.stop() }
        let result = try await chat.run(
            ["--config", config, "--base-url", server.baseURL, "-T", "demo", "--yes-tools", "demo"]
                + (json ? ["--json"] : []) + ["reserve Dune"], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").filter { $0.contains("declined") }
        #expect(
            lines == [
                #"chat: warning: declined a question from MCP server "demo": "How many copies?" (copies): no terminal to answer on"#
            ], "\(result.stderr)")
        let tool = try #require(try sentMessages(try server.request(1)).last { $0["role"] as? String == "tool" })
        #expect(tool["content"] as? String == "Nothing reserved.", "\(tool)")
    }
}
