import ChatDomain
import ChatTestSupport
import Foundation
import Glibc
import Synchronization
import Testing

@testable import ChatHTTP
@testable import ChatJSON
@testable import ChatMCP
@testable import ChatProviders

/// The PyPI server `mcp-server-time`, which no one here wrote, in the tests' virtual environment
/// (`MCPTestVenv`).
enum MCPTimeServer {
    static let command: Result<String, MCPTestVenvFailure> = MCPTestVenv.timeServer
    /// The virtual environment's directory.
    static let venv: Result<String, MCPTestVenvFailure> = MCPTestVenv.directory

    static func entry(timeout: Double = 30) throws -> MCPServerEntry {
        MCPServerEntry(
            name: "time", command: try command.get(), arguments: ["--local-timezone", "UTC"], callTimeout: timeout,
            startTimeout: 60)
    }
}

/// A log file of its own for a test's servers.
private func logPath() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("chat-mcp-\(UUID().uuidString).log").path
}

/// Whether process `pid` is gone (reaped).
private func isGone(_ pid: pid_t) -> Bool {
    kill(pid, 0) != 0 && errno == ESRCH
}

/// A consent that lets every call run.
private struct Allow: ToolConsent {
    func decide(_ call: ToolCall, tool: ToolDefinition) async -> ToolConsentDecision { .run }
    func continueAfter(rounds: Int) async -> Bool { false }
}

@Suite("MCP over stdio", .serialized, .timeLimit(.minutes(3))) struct MCPStdioTests {
    @Test("mcp-server-time: initialize, tools/list, tools/call, an error result, ended without a hang")
    func timeServer() async throws {
        let log = logPath()
        let problems = ReportedProblems()
        let source = MCPToolSource(
            [try MCPTimeServer.entry()], clientVersion: "test", logPath: { _ in log }, report: problems.report)
        let tools = await source.tools()
        #expect(problems.all.isEmpty)
        let names = tools.map(\.name)
        #expect(names.contains("time__get_current_time"))
        #expect(names.contains("time__convert_time"))
        #expect(tools.first { $0.name == "time__get_current_time" }?.parameters["type"] == .string("object"))

        let now = await source.call(
            ToolCall(id: "c1", name: "time__get_current_time", arguments: .object(["timezone": .string("UTC")])))
        #expect(now.callID == "c1")
        #expect(!now.isError)
        let year = Calendar(identifier: .gregorian).component(.year, from: Date())
        #expect(now.text.contains("\"timezone\"") && now.text.contains("\(year)-"), "\(now.text)")

        let bad = await source.call(
            ToolCall(id: "c2", name: "time__get_current_time", arguments: .object(["timezone": .string("Nowhere/X")])))
        #expect(bad.isError, "\(bad.text)")

        let unknown = await source.call(ToolCall(id: "c3", name: "time__nothing", arguments: .object([:])))
        #expect(unknown.isError)
        #expect(unknown.failure == .notRunning)

        // Closing waits at most 1 s for the server to leave, then 2 s after SIGTERM, then kills:
        // never a hang. The bound leaves room for a loaded machine (3.8 s was seen under load).
        let started = ContinuousClock.now
        await source.close()
        #expect(ContinuousClock.now - started < .seconds(6))
        try? FileManager.default.removeItem(atPath: log)
    }

    @Test("the whole loop: the chat server asks for the tool, the second request carries its real result")
    func endToEnd() async throws {
        let call =
            #"{"choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"time__get_current_time","arguments":""}}]},"finish_reason":null}]}"#
        let arguments =
            #"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"timezone\": \"UTC\"}"}}]},"finish_reason":null}]}"#
        let server = try LoopbackServer { _, index in
            index == 0
                ? ServerStep.sse([call, arguments, ServerStep.finishChunk("tool_calls")])
                : ServerStep.sse([ServerStep.chatChunk("It is noon in UTC."), ServerStep.finishChunk()])
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let log = logPath()
        let source = MCPToolSource([try MCPTimeServer.entry()], clientVersion: "test") { _ in log }
        let repository = ServerGPTRepository(
            server: ServerConfiguration(baseURL: server.baseURL, apiKey: "KEY", proxy: ""), transport: CurlHTTPClient())
        let useCase = GPTChatUseCase(repository: repository, tools: ToolLoop(source: source, consent: Allow()))
        var conversation = Conversation(settings: ChatSettings(model: "m", stream: true))
        let turn = await useCase.send("What time is it in UTC?", in: &conversation) { _ in }
        await source.close()
        #expect(turn.error == nil)
        #expect(turn.answer?.content == "It is noon in UTC.")
        let requests = server.requests
        try #require(requests.count == 2)
        #expect(requests[0].bodyText.contains(#""name":"time__get_current_time""#))
        let second = try JSONParser.parse(requests[1].bodyText)
        let messages = try #require(second["messages"]?.array)
        let toolMessage = try #require(messages.last)
        #expect(toolMessage["role"] == .string("tool"))
        #expect(toolMessage["tool_call_id"] == .string("call_1"))
        let result = try #require(toolMessage["content"]?.string)
        // The tool's real answer: JSON naming the zone and the date and time now.
        let parsed = try JSONParser.parse(result)
        #expect(parsed["timezone"] == .string("UTC"), "\(result)")
        #expect(
            parsed["datetime"]?.string?.hasPrefix("\(Calendar(identifier: .gregorian).component(.year, from: Date()))-")
                == true)
        #expect(messages[messages.count - 2]["tool_calls"]?.array?.first?["id"] == .string("call_1"))
        try? FileManager.default.removeItem(atPath: log)
    }

    @Test("a command that does not exist: no tools, one problem naming it")
    func missingCommand() async {
        let entry = MCPServerEntry(name: "ghost", command: "chat-no-such-command-\(UUID().uuidString.prefix(8))")
        let reported = ReportedProblems()
        let source = MCPToolSource([entry], clientVersion: "test", logPath: { _ in nil }, report: reported.report)
        #expect(await source.tools().isEmpty)
        let problems = reported.all
        #expect(problems.count == 1)
        #expect(problems.first?.server == "ghost")
        #expect(problems.first?.step == .starting)
        guard case .couldNotStart(let command, let reason)? = problems.first?.failure else {
            Issue.record("\(problems)")
            return
        }
        #expect(command == entry.command)
        #expect(reason == "No such file or directory")
        #expect(reported.lines.first?.hasPrefix(#"MCP server "ghost": could not start chat-no-such-command"#) == true)
    }

    @Test("a server that never answers initialize: a timeout, and it is ended within 3 s")
    func silentServer() async throws {
        // Writes a line to its stderr, then reads nothing and ignores the end of its input:
        // SIGTERM ends it.
        let log = logPath()
        let entry = MCPServerEntry(
            name: "mute", command: "/bin/sh", arguments: ["-c", "echo starting >&2; exec sleep 60"], startTimeout: 0.5)
        let connection = try MCPStdioConnection(entry, logPath: log)
        let started = await MCPClient.start(connection, entry: entry, clientVersion: "test")
        guard case .failure(let failure) = started else {
            Issue.record("initialize answered")
            return
        }
        #expect(failure == .noAnswer(seconds: 0.5))
        // A process group of its own: the terminal's Ctrl-C does not reach it.
        #expect(getpgid(connection.pid) == connection.pid)
        let clock = ContinuousClock.now
        await connection.close()
        #expect(ContinuousClock.now - clock < .seconds(3.5))
        #expect(isGone(connection.pid))
        // Its stderr went to the log, not the terminal.
        #expect((try? String(contentsOfFile: log, encoding: .utf8)) == "starting\n")
        try? FileManager.default.removeItem(atPath: log)
    }

    @Test("a server that ends mid-call fails the call at once, not at its timeout")
    func crashingServer() async throws {
        // Reads the first line (initialize) and exits without answering.
        let entry = MCPServerEntry(name: "crash", command: "/bin/sh", arguments: ["-c", "read line; exit 3"])
        let connection = try MCPStdioConnection(entry, logPath: "/dev/null")
        let clock = ContinuousClock.now
        let result = await connection.request("initialize", params: .object([:]), timeout: 30)
        #expect(ContinuousClock.now - clock < .seconds(10))
        guard case .failure(let failure) = result else {
            Issue.record("answered")
            return
        }
        #expect(failure == .failed(.ended))
        await connection.close()
    }

    @Test("a cancelled request ends at once and the server is told")
    func cancelled() async throws {
        // Echoes what it reads into a file, answers nothing.
        let seen = logPath()
        let entry = MCPServerEntry(name: "echo", command: "/bin/sh", arguments: ["-c", "cat > '\(seen)'"])
        let connection = try MCPStdioConnection(entry, logPath: "/dev/null")
        let task = Task { await connection.request("tools/call", params: .object([:]), timeout: 30) }
        try await Task.sleep(for: .milliseconds(200))
        let clock = ContinuousClock.now
        task.cancel()
        let result = await task.value
        #expect(ContinuousClock.now - clock < .seconds(2))
        #expect(result == .failure(.failed(.cancelled)))
        await connection.close()
        let text = (try? String(contentsOfFile: seen, encoding: .utf8)) ?? ""
        #expect(text.contains(#""method":"notifications/cancelled""#), "\(text)")
        try? FileManager.default.removeItem(atPath: seen)
    }

    /// A small MCP server of the tests' own, in Python: `grow` adds a tool and says the list
    /// changed; `big` answers 10 MB of text; `esc` answers text with escape sequences.
    static let fakeServer = #"""
        import json, sys
        tools = [{"name": "grow", "description": "adds a tool", "inputSchema": {"type": "object"}},
                 {"name": "big", "description": "10 MB", "inputSchema": {"type": "object"}},
                 {"name": "esc", "description": "\u001b]0;title\u0007", "inputSchema": {"type": "object"}}]
        def send(message):
            sys.stdout.write(json.dumps(message) + "\n"); sys.stdout.flush()
        for line in sys.stdin:
            message = json.loads(line)
            method, id = message.get("method"), message.get("id")
            if id is None: continue
            if method == "initialize":
                send({"jsonrpc": "2.0", "id": id, "result": {"protocolVersion": "2025-06-18", "capabilities": {"tools": {"listChanged": True}}, "serverInfo": {"name": "fake", "version": "0"}}})
            elif method == "tools/list":
                send({"jsonrpc": "2.0", "id": id, "result": {"tools": tools}})
            elif method == "tools/call":
                name = message["params"]["name"]
                if name == "grow":
                    tools.append({"name": "new", "inputSchema": {"type": "object"}})
                    send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
                    text = "grown"
                elif name == "big":
                    text = "x" * (10 * 1024 * 1024)
                else:
                    text = "\u001b[2J\u001b]52;c;AAAA\u0007done"
                send({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": text}, {"type": "image", "data": "AAAA", "mimeType": "image/png"}]}})
        """#

    @Test("list_changed, a 10 MB result, escape sequences and an image from a fake server of the initialize era")
    func fakeServerBehaviour() async throws {
        // Of the initialize era, and silent to what it does not know: pinned to its era.
        let entry = MCPServerEntry(
            name: "fake", command: "python3", arguments: ["-c", Self.fakeServer], protocolVersion: "2025-11-25")
        let source = MCPToolSource([entry], clientVersion: "test") { _ in "/dev/null" }
        #expect(await source.tools().map(\.name) == ["fake__grow", "fake__big", "fake__esc"])
        let grown = await source.call(ToolCall(id: "1", name: "fake__grow", arguments: .object([:])))
        #expect(grown.content.first == .text("grown"))
        // The image goes on as an image (its 3 bytes).
        guard case .image(let image)? = grown.content.last else {
            Issue.record("\(grown.content)")
            return
        }
        #expect(image.mimeType == "image/png" && image.data == [0, 0, 0] && image.path == "fake.grow")
        var names: [String] = []
        for _ in 0..<50 {
            names = await source.tools().map(\.name)
            if names.count == 4 { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(names == ["fake__grow", "fake__big", "fake__esc", "fake__new"])
        let big = await source.call(ToolCall(id: "2", name: "fake__big", arguments: .object([:])))
        #expect(!big.isError)
        #expect(big.text.utf8.count > 10 * 1024 * 1024)
        // The source hands the text on as it is; showing it safely is the presentation's work.
        let escaped = await source.call(ToolCall(id: "3", name: "fake__esc", arguments: .object([:])))
        #expect(escaped.content.first == .text("\u{1B}[2J\u{1B}]52;c;AAAA\u{07}done"))
        await source.close()
    }

    @Test("a server's pipe ends are close-on-exec: a child started afterwards holds none of them")
    func pipesNotInherited() async throws {
        let connection = try MCPStdioConnection(MCPServerEntry(name: "cat", command: "/bin/cat"), logPath: "/dev/null")
        let pipes = ["0", "1"].compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(connection.pid)/fd/\($0)")
        }
        #expect(pipes.count == 2 && pipes.allSatisfy { $0.hasPrefix("pipe:") }, "\(pipes)")
        // chat's own ends of them, close-on-exec for a child started any way (ProcessSpawn's
        // children would not hold them anyway: it closes every descriptor above 2 in them).
        let ends = ProcessSpawnTests.descriptors { pipes.contains($0) }
        #expect(ends.count == 2, "\(ends)")
        for end in ends { #expect(fcntl(end, F_GETFD) & FD_CLOEXEC != 0) }
        let held = try ProcessSpawnTests.heldByAChild()
        for pipe in pipes { #expect(!held.contains(pipe), "\(held)") }
        await connection.close()
    }

    @Test("offered names: server__tool within the providers' rules")
    func offeredNames() {
        #expect(MCPToolSource.offeredName(server: "time", tool: "get_current_time") == "time__get_current_time")
        #expect(MCPToolSource.offeredName(server: "my server", tool: "a.b/c") == "my_server__a_b_c")
        #expect(MCPToolSource.offeredName(server: String(repeating: "s", count: 70), tool: "t").count == 64)
    }
}
