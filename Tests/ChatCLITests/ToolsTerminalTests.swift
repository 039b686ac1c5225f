import ChatTestSupport
import Foundation
import Testing

/// A tiny MCP server speaking JSON-RPC lines itself (python3, no SDK): its tool `wait` sleeps
/// for `seconds`, then says so; each `notifications/cancelled` it gets is written to
/// `cancelled.log` in the home, with the request id, and each call it starts to `calls.log`.
func slowServerConfig(_ chat: ChatBinary) throws -> String {
    let script = chat.home + "/slow.py"
    try """
    import json, sys, threading, time
    lock = threading.Lock()
    def send(message):
        with lock:
            sys.stdout.write(json.dumps(message) + "\\n")
            sys.stdout.flush()
    def wait(id, seconds):
        time.sleep(seconds)
        send({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": "waited"}]}})
    for line in sys.stdin:
        message = json.loads(line)
        method, id = message.get("method"), message.get("id")
        if method == "initialize":
            send({"jsonrpc": "2.0", "id": id, "result": {
                "protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}},
                "serverInfo": {"name": "slow", "version": "1"}}})
        elif method == "tools/list":
            send({"jsonrpc": "2.0", "id": id, "result": {"tools": [{"name": "wait", "description": "Waits.",
                "inputSchema": {"type": "object", "properties": {"seconds": {"type": "number"}}}}]}})
        elif method == "tools/call":
            with open("\(chat.home)/calls.log", "a") as log:
                log.write("call %s\\n" % id)
            seconds = message["params"]["arguments"].get("seconds", 1)
            threading.Thread(target=wait, args=(id, seconds), daemon=True).start()
        elif method == "notifications/cancelled":
            with open("\(chat.home)/cancelled.log", "a") as log:
                log.write("cancelled %s\\n" % message["params"]["requestId"])
        elif id is not None:
            send({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "no such method"}})
    """.write(toFile: script, atomically: true, encoding: .utf8)
    return try chat.writeConfig(#"{"mcp_servers": {"slow": {"command": "/usr/bin/python3", "args": ["\#(script)"]}}}"#)
}

/// The tool's result the second request carried, if any.
private func toolResult(_ server: LoopbackServer, request: Int = 1) throws -> String? {
    guard server.requests.count > request else { return nil }
    return try sentMessages(try server.request(request)).last { $0["role"] as? String == "tool" }?["content"]
        as? String
}

/// Consent on a terminal, under tmux: each key, and Ctrl-C while a tool runs.
@Suite(
    .enabled(if: TmuxSession.isAvailable, "needs tmux (apt-get install tmux)"), .serialized, .timeLimit(.minutes(4)))
struct ToolsTerminalTests {
    /// A server asking for the time tool `rounds` times, then answering.
    private func timeServer(rounds: Int = 1, arguments: String = #"{"timezone": "UTC"}"#) throws -> LoopbackServer {
        try LoopbackServer { request, index in
            request.bodyText.components(separatedBy: #""role":"tool""#).count <= rounds
                ? toolCallAnswer("time__get_current_time", arguments: arguments, id: "call_\(index)")
                : ServerStep.sse([ServerStep.chatChunk("Done."), ServerStep.finishChunk()])
        }
    }

    private func start(_ chat: ChatBinary, _ config: String, _ server: LoopbackServer, _ extra: [String])
        throws -> TmuxSession
    {
        try TmuxSession(
            program: ChatBinary.path, arguments: ["--config", config, "--base-url", server.baseURL] + extra,
            environment: chat.environment.merging(["TERM": "xterm"]) { $1 })
    }

    @Test func yRunsTheCallShownInFull() async throws {
        let chat = ChatBinary()
        let server = try timeServer()
        defer { server.stop() }
        let session = try start(chat, try timeConfig(chat), server, ["-T", "time", "What time is it?"])
        defer { session.kill() }
        #expect(await session.waitForScreen(timeout: 60) { $0.contains("[e]dit the arguments") }, "\(session.screen())")
        let screen = session.screen()
        #expect(screen.contains("Tool call: get_current_time on MCP server time\n{\n  \"timezone\" : \"UTC\"\n}\n"))
        #expect(server.requests.count == 1)
        try session.send("y")
        #expect(await session.exitStatus(timeout: 30) == 0, "\(session.screen())")
        #expect(session.screen().contains("⚙ time.get_current_time {\"timezone\":\"UTC\"} · "))
        #expect(session.screen().contains("Done."))
        #expect(try toolResult(server)?.contains("\"datetime\"") == true)
    }

    @Test func nDeclinesAndTheModelIsTold() async throws {
        let chat = ChatBinary()
        let server = try timeServer()
        defer { server.stop() }
        let session = try start(chat, try timeConfig(chat), server, ["-T", "time", "What time is it?"])
        defer { session.kill() }
        #expect(await session.waitForScreen(timeout: 60) { $0.contains("[e]dit the arguments") })
        try session.send("n")
        #expect(await session.exitStatus(timeout: 30) == 0, "\(session.screen())")
        #expect(try toolResult(server) == "Error: the user declined to run this tool call")
        #expect(!session.screen().contains("⚙"))
    }

    @Test func ctrlCAtTheQuestionStopsTheTurnWith130() async throws {
        let chat = ChatBinary()
        let server = try timeServer()
        defer { server.stop() }
        let session = try start(chat, try timeConfig(chat), server, ["-T", "time", "What time is it?"])
        defer { session.kill() }
        #expect(await session.waitForScreen(timeout: 60) { $0.contains("[e]dit the arguments") })
        try session.send("C-c")
        #expect(await session.exitStatus(timeout: 10) == 130, "\(session.screen())")
        #expect(server.requests.count == 1)
        #expect(!session.screen().contains("⚙"))
    }

    @Test func dashXUsesTheLoopAndItsSpinnerLeavesTheQuestionAlone() async throws {
        let chat = ChatBinary()
        let server = try LoopbackServer { request, _ in
            request.bodyText.contains(#""role":"tool""#)
                ? ServerStep.sse([ServerStep.chatChunk("```sh\ndate\n```"), ServerStep.finishChunk()])
                : toolCallAnswer("time__get_current_time", arguments: #"{"timezone": "UTC"}"#)
        }
        defer { server.stop() }
        let session = try TmuxSession(
            program: ChatBinary.path,
            arguments: [
                "--config", try timeConfig(chat), "--base-url", server.baseURL, "-T", "time", "-x", "the time",
            ],
            environment: chat.environment.merging(["TERM": "xterm", "SHELL": "/bin/bash"]) { $1 })
        defer { session.kill() }
        #expect(await session.waitForScreen(timeout: 60) { $0.contains("[e]dit the arguments") })
        #expect(!session.screen().contains("waiting"), "\(session.screen())")
        try session.send("y")
        #expect(await session.waitForScreen(timeout: 30) { $0.contains("run it? [y]es") }, "\(session.screen())")
        #expect(session.screen().contains("⚙ time.get_current_time"))
        try session.send("n")
        #expect(await session.exitStatus() == 1)
    }

    @Test func aRunsThisToolWithoutAskingForTheRestOfTheRun() async throws {
        let chat = ChatBinary()
        let server = try timeServer(rounds: 2)
        defer { server.stop() }
        let session = try start(chat, try timeConfig(chat), server, ["-T", "time", "What time is it?"])
        defer { session.kill() }
        #expect(await session.waitForScreen(timeout: 60) { $0.contains("[e]dit the arguments") })
        try session.send("a")
        #expect(await session.exitStatus(timeout: 30) == 0, "\(session.screen())")
        let screen = session.screen()
        #expect(screen.components(separatedBy: "[e]dit the arguments").count == 2, "\(screen)")
        #expect(screen.components(separatedBy: "⚙ time.get_current_time").count == 3, "\(screen)")
        #expect(server.requests.count == 3)
    }

    @Test func eEditsTheArgumentsAndNonJSONIsAskedAgain() async throws {
        let chat = ChatBinary()
        let server = try timeServer()
        defer { server.stop() }
        let session = try start(chat, try timeConfig(chat), server, ["-T", "time", "What time is it?"])
        defer { session.kill() }
        #expect(await session.waitForScreen(timeout: 60) { $0.contains("[e]dit the arguments") })
        try session.send("e")
        #expect(await session.waitForScreen { $0.contains(#"edit › {"timezone":"UTC"}"#) }, "\(session.screen())")
        try session.send("C-u")
        try session.type("not json")
        try session.send("Enter")
        #expect(await session.waitForScreen { $0.contains("not a JSON object") }, "\(session.screen())")
        try session.send("e")
        #expect(await session.waitForScreen { $0.contains("edit › not json") }, "\(session.screen())")
        try session.send("C-u")
        try session.type(#"{"timezone": "Asia/Tokyo"}"#)
        try session.send("Enter")
        #expect(await session.waitForScreen { $0.contains("\"Asia/Tokyo\"\n}\nRun it?") }, "\(session.screen())")
        try session.send("y")
        #expect(await session.exitStatus(timeout: 30) == 0, "\(session.screen())")
        #expect(try toolResult(server)?.contains("Asia/Tokyo") == true)
    }

    @Test func ctrlCDuringASlowToolCancelsItAndTheREPLGoesOn() async throws {
        let chat = ChatBinary()
        let config = try slowServerConfig(chat)
        let server = try LoopbackServer { request, index in
            request.bodyText.contains(#""role":"tool""#) || request.bodyText.contains(#""content":"second""#)
                ? ServerStep.sse([ServerStep.chatChunk("Fine."), ServerStep.finishChunk()])
                : toolCallAnswer("slow__wait", arguments: #"{"seconds": 60}"#, id: "call_\(index)")
        }
        defer { server.stop() }
        let session = try start(chat, config, server, ["-T", "slow", "--yes-tools", "slow", "-i"])
        defer { session.kill() }
        #expect(await session.waitForScreen { $0.contains("›") })
        // The prompt shows the servers whose tools are on; /tools lists them, made safe.
        #expect(session.screen().contains("gpt-4o-mini · tools: slow · 0 turns ›"), "\(session.screen())")
        try session.type("first")
        try session.send("Enter")
        #expect(await session.waitForScreen(timeout: 60) { $0.contains("⚙ slow.wait") }, "\(session.screen())")
        let pressed = ContinuousClock.now
        try session.send("C-c")
        #expect(
            await session.waitForScreen(timeout: 3) { $0.components(separatedBy: "›").count >= 3 },
            "\(session.screen())")
        #expect(ContinuousClock.now - pressed < .seconds(3))
        try session.type("second")
        try session.send("Enter")
        #expect(await session.waitForScreen { $0.contains("Fine.") }, "\(session.screen())")
        // The cancelled call kept its result, saying so.
        let sent = try sentMessages(try #require(server.requests.last))
        let tool = try #require(sent.last { $0["role"] as? String == "tool" })
        #expect(tool["content"] as? String == "Error: the user cancelled this tool call before it finished")
        // The server was told.
        let told = try String(contentsOfFile: chat.home + "/cancelled.log", encoding: .utf8)
        #expect(told.hasPrefix("cancelled "), "\(told)")
        try session.send("C-d")
        #expect(await session.exitStatus() == 0)
    }
}
