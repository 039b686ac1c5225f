import ChatTestSupport
import Foundation
import Testing

/// A streamed answer that calls tool `name` with `arguments` (JSON text) as call `id`.
func toolCallAnswer(_ name: String, arguments: String, id: String = "call_1") -> [ServerStep] {
    let escaped = arguments.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    let call =
        #"{"choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"\#(id)","type":"function","function":{"name":"\#(name)","arguments":"\#(escaped)"}}]},"finish_reason":null}]}"#
    return ServerStep.sse([call, ServerStep.finishChunk("tool_calls")])
}

/// The messages of a recorded request's body.
func sentMessages(_ request: RecordedRequest) throws -> [[String: Any]] {
    let body = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
    return try #require(body["messages"] as? [[String: Any]])
}

/// A config whose `mcp_servers` has the real `mcp-server-time` as `time`, and `extra` entries.
func timeConfig(_ chat: ChatBinary, entry: String = "", extra: String = "") throws -> String {
    let time = try MCPTestVenv.timeServer.get()
    return try chat.writeConfig(
        """
        {"mcp_servers": {"time": {"command": "\(time)", "args": ["--local-timezone", "UTC"]\(entry)}\(extra)}}
        """)
}

/// Tools through the command line, without a terminal: settings and flags, the path with no
/// tools, the real `mcp-server-time` end to end, no terminal to ask on, the round limit.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ToolsCommandTests {
    @Test func withServersConfiguredButNoToolsChosenNothingOfMCPRuns() async throws {
        let chat = ChatBinary()
        let marker = chat.home + "/started"
        let config = try chat.writeConfig(
            #"{"mcp_servers": {"mark": {"command": "/bin/sh", "args": ["-c", "touch \#(marker)"]}}}"#)
        let server = try LoopbackServer { _, _ in
            ServerStep.sse([ServerStep.chatChunk("hi"), ServerStep.finishChunk()])
        }
        defer { server.stop() }
        let plain = try await chat.run(["--config", config, "--base-url", server.baseURL, "hello"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stdout == "hi\n")
        #expect(plain.stderr == "")
        #expect(!FileManager.default.fileExists(atPath: marker))
        #expect(!FileManager.default.fileExists(atPath: chat.home + "/data/chat/mcp"))
        #expect(!(try server.request(0)).bodyText.contains("\"tools\""))

        // --no-tools wins over -T.
        let off = try await chat.run([
            "--config", config, "--base-url", server.baseURL, "-T", "mark", "--no-tools", "x",
        ])
        #expect(off.status == 0)
        #expect(!FileManager.default.fileExists(atPath: marker))

        // Asked for, the server starts; it ends at once: one line naming it and its log, and the
        // chat goes on without its tools.
        let asked = try await chat.run(["--config", config, "--base-url", server.baseURL, "-T", "mark", "hello"])
        #expect(asked.status == 0, "\(asked.stderr)")
        #expect(asked.stdout == "hi\n")
        #expect(FileManager.default.fileExists(atPath: marker))
        let log = chat.home + "/data/chat/mcp/mark.log"
        #expect(asked.stderr.hasPrefix("chat: warning: MCP server \"mark\": "), "\(asked.stderr)")
        #expect(asked.stderr.hasSuffix("(its log: \(log))\n"), "\(asked.stderr)")
        #expect(asked.stderr.split(separator: "\n").count == 1)
    }

    /// `--tools-list` takes `tools` from the same levels as a chat run: a profile's and a role's
    /// choose the servers listed, -T beats both, and with none every configured server is listed.
    @Test func toolsListListsTheServersTheRunWouldUse() async throws {
        let chat = ChatBinary()
        let time = try MCPTestVenv.timeServer.get()
        let config = try chat.writeConfig(
            """
            {"mcp_servers": {"time": {"command": "\(time)", "args": ["--local-timezone", "UTC"]},
                             "broken": {"command": "/nonexistent/mcp-server"}},
             "profiles": {"clock": {"base_url": "http://127.0.0.1:9/v1", "tools": ["time"]}},
             "roles": {"fixer": {"prompt": "Fix it.", "tools": ["broken"]}}}
            """)
        for arguments in [["--profile", "clock"], ["-r", "fixer", "-T", "time"]] {
            let listed = try await chat.run(["--config", config, "--tools-list"] + arguments, timeout: 90)
            #expect(listed.status == 0, "\(arguments): \(listed.stderr)")
            #expect(listed.stdout.contains("get_current_time"), "\(arguments): \(listed.stdout)")
            #expect(listed.stderr == "", "\(arguments): \(listed.stderr)")
        }
        // The role's server alone: it cannot start, and that is the one line said.
        let role = try await chat.run(["--config", config, "--tools-list", "-r", "fixer"], timeout: 90)
        #expect(!role.stdout.contains("get_current_time"), "\(role.stdout)")
        #expect(role.stderr.contains("broken"), "\(role.stderr)")
        let every = try await chat.run(["--config", config, "--tools-list"], timeout: 90)
        #expect(every.stdout.contains("get_current_time"), "\(every.stdout)")
        #expect(every.stderr.contains("broken"), "\(every.stderr)")
    }

    /// A CA file that is not there is said as a chat run says it, when a server listed is https.
    @Test func toolsListChecksTheCAFileForAnHTTPSServer() async throws {
        let chat = ChatBinary()
        let config = try chat.writeConfig(#"{"mcp_servers": {"docs": {"url": "https://127.0.0.1:9/mcp"}}}"#)
        let listed = try await chat.run(["--config", config, "--ca-cert", "/nonexistent/ca.pem", "--tools-list"])
        #expect(listed.status == 2, "\(listed.stderr)")
        #expect(listed.stderr.hasPrefix("chat: error: "), "\(listed.stderr)")
        #expect(
            listed.stderr.contains("/nonexistent/ca.pem") && listed.stderr.contains("--ca-cert"), "\(listed.stderr)")
    }

    @Test func unknownServerNamesAreOneLineAndExit2() async throws {
        let chat = ChatBinary()
        let config = try chat.writeConfig(#"{"mcp_servers": {"time": {"command": "x"}, "git": {"command": "y"}}}"#)
        let base = ["--config", config, "--base-url", "http://127.0.0.1:9/v1"]
        let typo = try await chat.run(base + ["-T", "tme", "hi"])
        #expect(typo.status == 2)
        #expect(
            typo.stderr
                == "chat: error: no MCP server named \"tme\" (from --tools); did you mean time? configured servers: git, time\n"
        )
        let yes = try await chat.run(base + ["--yes-tools", "web.fetch", "hi"])
        #expect(yes.status == 2)
        #expect(
            yes.stderr == "chat: error: no MCP server named \"web\" (from --yes-tools); configured servers: git, time\n"
        )
        let rounds = try await chat.run(base + ["--max-tool-rounds", "0", "hi"])
        #expect(rounds.status == 2)
        #expect(rounds.stderr.contains("--max-tool-rounds"))
        // The completion scripts ask for the default config's servers.
        try FileManager.default.createDirectory(atPath: chat.home + "/config/chat", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: config, toPath: chat.home + "/config/chat/config.json")
        let listed = try await chat.run(["--completion-values", "tool-servers"])
        #expect(listed.stdout == "git\ntime\n")
    }

    @Test func theRealTimeServerAnswersAndTheSecondRequestCarriesItsResult() async throws {
        let chat = ChatBinary()
        let config = try timeConfig(chat)
        let server = try LoopbackServer { _, index in
            index == 0
                ? toolCallAnswer("time__get_current_time", arguments: #"{"timezone": "UTC"}"#)
                : ServerStep.sse([ServerStep.chatChunk("It is noon in UTC."), ServerStep.finishChunk()])
        }
        defer { server.stop() }
        let result = try await chat.run(
            [
                "--config", config, "--base-url", server.baseURL, "-T", "time", "--yes-tools", "time",
                "What time is it?",
            ],
            timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "It is noon in UTC.\n")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(lines.first?.hasPrefix(#"⚙ time.get_current_time {"timezone":"UTC"} · "#) == true, "\(result.stderr)")
        #expect(lines.first?.contains(" · ok · ") == true)
        #expect(server.requests.count == 2)
        #expect((try server.request(0)).bodyText.contains(#""name":"time__get_current_time""#))
        let messages = try sentMessages(try server.request(1))
        let tool = try #require(messages.last)
        #expect(tool["role"] as? String == "tool")
        #expect(tool["tool_call_id"] as? String == "call_1")
        let content = try #require(tool["content"] as? String)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(content.utf8)) as? [String: Any])
        #expect(parsed["timezone"] as? String == "UTC", "\(content)")
        let year = Calendar(identifier: .gregorian).component(.year, from: Date())
        #expect((parsed["datetime"] as? String)?.hasPrefix("\(year)-") == true)
    }

    @Test func aServerThatEndsMidCallIsOneLineWithItsLogAndTheChatGoesOn() async throws {
        let chat = ChatBinary()
        let script = chat.home + "/crash.py"
        try """
        import json, sys
        for line in sys.stdin:
            message = json.loads(line)
            method, id = message.get("method"), message.get("id")
            if method == "initialize":
                print(json.dumps({"jsonrpc": "2.0", "id": id, "result": {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}}, "serverInfo": {"name": "crash", "version": "1"}}}), flush=True)
            elif method == "tools/list":
                print(json.dumps({"jsonrpc": "2.0", "id": id, "result": {"tools": [{"name": "boom", "description": "Ends.", "inputSchema": {"type": "object"}}]}}), flush=True)
            elif method == "tools/call":
                sys.stderr.write("dying now\\n")
                sys.exit(3)
        """.write(toFile: script, atomically: true, encoding: .utf8)
        let config = try chat.writeConfig(
            #"{"mcp_servers": {"crash": {"command": "/usr/bin/python3", "args": ["\#(script)"]}}}"#)
        let server = try LoopbackServer { request, _ in
            request.bodyText.contains(#""role":"tool""#)
                ? ServerStep.sse([ServerStep.chatChunk("It broke."), ServerStep.finishChunk()])
                : toolCallAnswer("crash__boom", arguments: "{}")
        }
        defer { server.stop() }
        let result = try await chat.run(
            ["--config", config, "--base-url", server.baseURL, "-T", "crash", "--yes-tools", "crash", "Go"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "It broke.\n")
        let log = chat.home + "/data/chat/mcp/crash.log"
        #expect(
            result.stderr.contains(
                "chat: warning: MCP server \"crash\": the server ended (its output closed) (its log: \(log))\n"),
            "\(result.stderr)")
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("dying now"))
        let tool = try #require(try sentMessages(try server.request(1)).last)
        #expect((tool["content"] as? String)?.contains("the server ended") == true)
    }

    @Test(arguments: [(Int32(SIGTERM), Int32(143)), (Int32(SIGHUP), Int32(129)), (Int32(SIGINT), Int32(130))])
    func aSignalDuringACallEndsTheServerWithinThreeSeconds(signal: Int32, status: Int32) async throws {
        let chat = ChatBinary()
        let config = try slowServerConfig(chat)
        let server = try LoopbackServer { _, _ in toolCallAnswer("slow__wait", arguments: #"{"seconds": 60}"#) }
        defer { server.stop() }
        let running = try chat.start(
            ["--config", config, "--base-url", server.baseURL, "-T", "slow", "--yes-tools", "slow", "Wait"])
        let calls = chat.home + "/calls.log"
        let deadline = ContinuousClock.now + .seconds(30)
        while !FileManager.default.fileExists(atPath: calls) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(FileManager.default.fileExists(atPath: calls))
        #expect(isRunning(chat.home + "/slow.py"))
        let sent = ContinuousClock.now
        running.signal(signal)
        let result = await running.wait(timeout: 10)
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stderr.contains("⚙ slow.wait {\"seconds\":60} · "), "\(result.stderr)")
        #expect(result.stderr.contains(" · cancelled · "))
        while isRunning(chat.home + "/slow.py") && ContinuousClock.now - sent < .seconds(3) {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(!isRunning(chat.home + "/slow.py"), "the server outlived chat by 3 s")
    }

    @Test func chatEndsWithoutWaitingForAServerAndAWatcherEndsOneThatStaysWithin3Seconds() async throws {
        // A server that outlives the end of its input and SIGTERM alike: only SIGKILL ends it.
        // chat waited for it up to 3 s before; now its list is out and chat has ended while the
        // server still runs, and a watcher that outlived chat sends SIGTERM, then SIGKILL.
        let chat = ChatBinary()
        let script = chat.home + "/stubborn.py"
        let pidFile = chat.home + "/stubborn.pid"
        let events = chat.home + "/stubborn.log"
        try """
        import json, os, signal, sys, time
        def note(text):
            with open("\(events)", "a") as log:
                log.write(text + "\\n")
        signal.signal(signal.SIGTERM, lambda number, frame: note("term"))
        with open("\(pidFile)", "w") as f:
            f.write(str(os.getpid()))
        for line in sys.stdin:
            message = json.loads(line)
            method, id = message.get("method"), message.get("id")
            if method == "initialize":
                result = {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}},
                          "serverInfo": {"name": "stubborn", "version": "1"}}
            elif method == "tools/list":
                result = {"tools": [{"name": "stay", "description": "Stays.", "inputSchema": {"type": "object"}}]}
            elif id is not None:
                sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": id,
                                             "error": {"code": -32601, "message": "no such method"}}) + "\\n")
                sys.stdout.flush()
                continue
            else:
                continue
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": id, "result": result}) + "\\n")
            sys.stdout.flush()
        note("eof")
        while True:
            time.sleep(1)
        """.write(toFile: script, atomically: true, encoding: .utf8)
        let config = try chat.writeConfig(
            #"{"mcp_servers": {"stubborn": {"command": "/usr/bin/python3", "args": ["\#(script)"]}}}"#)
        let result = try await chat.run(["--config", config, "--tools-list", "-T", "stubborn"], timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("stay"), "\(result.stdout)")
        let pid = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8)))
        // SIGKILL is 3 s away: the server still runs, with chat gone.
        #expect(isAlive(pid), "chat waited for the server to end")
        let deadline = ContinuousClock.now + .seconds(15)
        while isAlive(pid) && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!isAlive(pid), "the watcher did not end the server")
        let log = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
        #expect(log == "eof\nterm\n", "\(log)")
    }

    /// Whether process `pid` runs (a zombie no longer does: the reaper may be slow to reap it).
    private func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return !stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    /// Whether a process whose command line holds `text` runs.
    private func isRunning(_ text: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pgrep")
        process.arguments = ["-f", text]
        process.standardOutput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    @Test func jsonHasToolCallAndToolResultEvents() async throws {
        let chat = ChatBinary()
        let config = try timeConfig(chat)
        let server = try LoopbackServer { _, index in
            index == 0
                ? toolCallAnswer("time__get_current_time", arguments: #"{"timezone": "UTC"}"#)
                : ServerStep.sse([ServerStep.chatChunk("Noon."), ServerStep.finishChunk()])
        }
        defer { server.stop() }
        let result = try await chat.run(
            ["--config", config, "--base-url", server.baseURL, "-T", "time", "--yes-tools", "time", "--json", "Time?"],
            timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")
        let events = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let call = try #require(events.first { $0["type"] as? String == "tool_call" })
        #expect(call["id"] as? String == "call_1")
        #expect(call["server"] as? String == "time")
        #expect(call["tool"] as? String == "get_current_time")
        #expect((call["arguments"] as? [String: Any])?["timezone"] as? String == "UTC")
        let done = try #require(events.first { $0["type"] as? String == "tool_result" })
        #expect(done["id"] as? String == "call_1")
        #expect(done["is_error"] as? Bool == false)
        #expect((done["bytes"] as? Int ?? 0) > 20)
        #expect(done["duration_ms"] is Int)
        #expect(events.last?["type"] as? String == "done")
    }

    @Test func withNoTerminalAToolNotApprovedIsDeclinedAndSaidOnce() async throws {
        let chat = ChatBinary()
        let config = try timeConfig(chat)
        // Two rounds of calls, then an answer.
        let server = try LoopbackServer { request, index in
            request.bodyText.components(separatedBy: #""role":"tool""#).count < 3
                ? toolCallAnswer("time__get_current_time", arguments: #"{"timezone": "UTC"}"#, id: "call_\(index)")
                : ServerStep.sse([ServerStep.chatChunk("I may not look."), ServerStep.finishChunk()])
        }
        defer { server.stop() }
        let result = try await chat.run(
            ["--config", config, "--base-url", server.baseURL, "-T", "time", "What time is it?"], timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "I may not look.\n")
        #expect(
            result.stderr
                == "chat: warning: declined time.get_current_time: no terminal to ask on; allow it with auto_approve "
                + "in its mcp_servers entry, or --yes-tools time.get_current_time\n")
        #expect(server.requests.count == 3)
        let tool = try #require(try sentMessages(try server.request(1)).last)
        #expect(tool["role"] as? String == "tool")
        #expect((tool["content"] as? String)?.contains("declined") == true)

        // auto_approve in the entry lets it run.
        let approving = try timeConfig(chat, entry: #", "auto_approve": ["get_current_time"]"#)
        let again = try await chat.run(
            ["--config", approving, "--base-url", server.baseURL, "-T", "time", "What time is it?"], timeout: 90)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.hasPrefix("⚙ time.get_current_time"), "\(again.stderr)")
        #expect(again.stderr.components(separatedBy: " · ok · ").count == 3)
        #expect(!again.stderr.contains("declined"))
    }

    @Test func theRoundLimitOffATerminalStopsNamingTheSetting() async throws {
        let chat = ChatBinary()
        let config = try timeConfig(chat)
        let server = try LoopbackServer { _, index in
            toolCallAnswer("time__get_current_time", arguments: #"{"timezone": "UTC"}"#, id: "call_\(index)")
        }
        defer { server.stop() }
        let result = try await chat.run(
            [
                "--config", config, "--base-url", server.baseURL, "-T", "time", "--yes-tools", "time",
                "--max-tool-rounds", "2", "Loop",
            ], timeout: 90)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout == "")
        #expect(server.requests.count == 3)
        let last = try #require(result.stderr.split(separator: "\n").last)
        #expect(last.contains("max_tool_rounds"), "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "⚙ time.get_current_time").count == 3)
    }
}
