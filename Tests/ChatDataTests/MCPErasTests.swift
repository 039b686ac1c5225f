import ChatDomain
import ChatPresentation
import ChatTestSupport
import Foundation
import Testing

@testable import ChatJSON
@testable import ChatMCP
@testable import ChatSystem

/// A fresh data directory for the era memory, in the temporary directory.
func eraDirectory() -> DataDirectory {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("chat-eras-\(UUID().uuidString)").path
    return DataDirectory(environment: ["XDG_DATA_HOME": path])!
}

/// A stdio server of the initialize era written by hand: it answers `initialize` with the version
/// offered, lists one tool `t`, and answers what it does not know with -32601 (`silent`: not at
/// all, as some servers do before `initialize`).
func legacyStdioServer(silent: Bool = false) -> String {
    """
    import json, sys
    def send(message):
        sys.stdout.write(json.dumps(message) + "\\n"); sys.stdout.flush()
    for line in sys.stdin:
        message = json.loads(line)
        method, id = message.get("method"), message.get("id")
        if id is None: continue
        if method == "initialize":
            send({"jsonrpc": "2.0", "id": id, "result": {"protocolVersion": message["params"]["protocolVersion"],
                  "capabilities": {"tools": {}}, "serverInfo": {"name": "old", "version": "1"}}})
        elif method == "tools/list":
            send({"jsonrpc": "2.0", "id": id, "result": {"tools": [{"name": "t", "inputSchema": {"type": "object"}}]}})
        elif \(silent ? "False" : "True"):
            send({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "Method not found"}})
    """
}

/// The methods of `server`'s requests, in order (a JSON-RPC body's `method`).
func methods(_ server: LoopbackServer) -> [String] {
    server.requests.map { (try? JSONParser.parse($0.bodyText))?["method"]?.string ?? "-" }
}

/// A loopback HTTP server of the initialize era: it refuses a request outside a session as the
/// `mcp` SDK 1.x does (400, -32600 "Missing session ID", `status` to change that), answers
/// `initialize` with a session, and lists one tool `t`.
func legacyHTTPServer(refusal: Int = 400) throws -> LoopbackServer {
    try LoopbackServer { request, _ in
        guard let message = try? JSONParser.parse(request.bodyText), let method = message["method"]?.string else {
            return ServerStep.json(status: 400, "{}")
        }
        let id = message["id"]?.jsonText ?? "null"
        if method == "initialize" {
            return ServerStep.json(
                status: 200,
                #"{"jsonrpc":"2.0","id":\#(id),"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"old","version":"1"}}}"#,
                headers: [("Mcp-Session-Id", "s-1")])
        }
        guard request.header("mcp-session-id") == "s-1" else {
            return refusal == 404
                ? [.head(status: 404, headers: [("Content-Length", "0")], chunked: false), .end]
                : ServerStep.json(
                    status: refusal,
                    #"{"jsonrpc":"2.0","id":"server-error","error":{"code":-32600,"message":"Bad Request: Missing session ID"}}"#
                )
        }
        if message["id"] == nil {
            return [.head(status: 202, headers: [("Content-Length", "0")], chunked: false), .end]
        }
        return ServerStep.json(
            status: 200,
            #"{"jsonrpc":"2.0","id":\#(id),"result":{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}}"#)
    }
}

/// The two protocol eras: the probe (`server/discover`) and its fallback to `initialize` over
/// stdio and HTTP, the era remembered and pinned, -32022, the modern envelope and header fields
/// checked by a server that speaks nothing else, `ttlMs`, and what is sent again when an answer
/// breaks off.
@Suite("MCP's two eras", .serialized, .timeLimit(.minutes(4)))
struct MCPErasTests {
    private func source(
        _ entries: [MCPServerEntry], memory: DataDirectory? = nil, problems: ReportedProblems = ReportedProblems()
    ) -> MCPToolSource {
        MCPToolSource(
            entries, clientVersion: "9.9", logPath: { _ in nil }, report: problems.report,
            memory: memory.map(MCPEraMemory.init(directory:)))
    }

    private func modernOnly(_ log: String, ttl: Int = 0, name: String = "modern") throws -> MCPServerEntry {
        MCPServerEntry(
            name: name, command: try MCPTestServers.python.get(),
            arguments: [MCPTestServers.script("modern_only.py"), "stdio", log, String(ttl)])
    }

    private func sdkEntry(pin: String? = nil) throws -> MCPServerEntry {
        MCPServerEntry(
            name: "sdk", command: try MCPTestServers.python.get(),
            arguments: [MCPTestServers.script("sdk_features.py")],
            startTimeout: 60, protocolVersion: pin)
    }

    @Test("stdio: a server of 2026-07-28 answers the probe, and is spoken to in its era with no initialize")
    func stdioModern() async throws {
        let log = MCPTestServers.logPath()
        let problems = ReportedProblems()
        let source = source([try modernOnly(log)], problems: problems)
        #expect(await source.tools().map(\.name).contains("modern__ask"))
        let statuses = await source.statuses()
        await source.close()
        #expect(problems.all.isEmpty, "\(problems.lines)")
        #expect(statuses.first?.protocolVersion == "2026-07-28")
        #expect(statuses.first?.offersPrompts == true && statuses.first?.offersResources == true)
        let sent = modernOnlyLog(log)
        #expect(sent.first?["method"] as? String == "server/discover")
        #expect(!sent.contains { $0["method"] as? String == "initialize" })
        // Every request passed the server's checks of _meta (a refused one would have failed).
        #expect(sent.map { $0["method"] as? String } == ["server/discover", "tools/list", "resources/list"])
    }

    @Test("stdio: a server of the initialize era refuses the probe and is spoken to with initialize")
    func stdioFallBackOnAnError() async throws {
        let entry = MCPServerEntry(name: "old", command: "python3", arguments: ["-c", legacyStdioServer()])
        let memory = eraDirectory()
        let source = source([entry], memory: memory)
        #expect(await source.tools().map(\.name) == ["old__t"])
        #expect(await source.statuses().first?.protocolVersion == "2025-11-25")
        await source.close()
        #expect(MCPEraMemory(directory: memory).recall(entry)?.version == "2025-11-25")
    }

    @Test("stdio: a server that does not answer the probe is waited for no longer than its timeout")
    func stdioFallBackOnSilence() async throws {
        var entry = MCPServerEntry(name: "old", command: "python3", arguments: ["-c", legacyStdioServer(silent: true)])
        entry.callTimeout = 1
        let source = source([entry])
        let clock = ContinuousClock.now
        #expect(await source.tools().map(\.name) == ["old__t"])
        // The probe's wait was the server's 1 s, not the 10 s it is at most.
        #expect(ContinuousClock.now - clock < .seconds(8))
        #expect(await source.statuses().first?.protocolVersion == "2025-11-25")
        await source.close()
    }

    @Test("HTTP: a server of 2026-07-28 answers the probe; every POST's header fields equal the body's")
    func httpModern() async throws {
        let log = MCPTestServers.logPath()
        let server = try await ScriptMCPServer.start("modern_only.py", arguments: ["http", log])
        defer { server.stop() }
        let problems = ReportedProblems()
        let source = source([MCPServerEntry(name: "modern", url: server.url)], problems: problems)
        // Six tools, and the two the model reads the server's resources with.
        let tools = await source.tools()
        #expect(tools.count == 8)
        let café = try #require(tools.first { $0.origin?.tool == "café" })
        #expect(café.name == "modern__caf_")
        let call = await source.call(ToolCall(id: "c", name: café.name, arguments: .object([:])), tool: café)
        await source.close()
        #expect(problems.all.isEmpty, "\(problems.lines)")
        #expect(call.text == "café served")
        let sent = modernOnlyLog(log)
        #expect(
            sent.map { $0["method"] as? String } == ["server/discover", "tools/list", "resources/list", "tools/call"])
        for request in sent { #expect((request["violations"] as? [String]) == [], "\(request)") }
        // A name that is not ASCII goes base64 in Mcp-Name.
        #expect(sent.last?["mcp_name"] as? String == "=?base64?Y2Fmw6k=?=")
    }

    @Test(
        "HTTP: a server of the initialize era refuses the probe (400 without a modern error, or 404): initialize",
        arguments: [400, 404])
    func httpFallBack(refusal: Int) async throws {
        let server = try legacyHTTPServer(refusal: refusal)
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let memory = eraDirectory()
        let entry = MCPServerEntry(name: "old", url: "http://127.0.0.1:\(server.port)/mcp")
        let problems = ReportedProblems()
        let source = source([entry], memory: memory, problems: problems)
        #expect(await source.tools().map(\.name) == ["old__t"])
        #expect(await source.statuses().first?.protocolVersion == "2025-06-18")
        await source.close()
        #expect(problems.all.isEmpty, "\(problems.lines)")
        #expect(
            methods(server).prefix(4) == ["server/discover", "initialize", "notifications/initialized", "tools/list"])
        #expect(server.requests[0].header("mcp-protocol-version") == "2026-07-28")
        #expect(server.requests[0].header("mcp-method") == "server/discover")
        #expect(server.requests[1].header("mcp-method") == nil)
        #expect(MCPEraMemory(directory: memory).recall(entry)?.version == "2025-06-18")
    }

    @Test("HTTP: a 401 or 403 to the probe is no era: no initialize, nothing remembered", arguments: [401, 403])
    func httpSignIn(status: Int) async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.json(status: status, #"{"error":"invalid_token"}"#, headers: [("WWW-Authenticate", "Bearer")])
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let memory = eraDirectory()
        let entry = MCPServerEntry(name: "hosted", url: "http://127.0.0.1:\(server.port)/mcp")
        let problems = ReportedProblems()
        let source = source([entry], memory: memory, problems: problems)
        #expect(await source.tools().isEmpty)
        await source.close()
        // With no sign-in to settle it (network.signIn is not set here), the refusal as it came;
        // signing in first, then probing, is MCPOAuthCommandTests'.
        guard case .httpStatus(status, _)? = problems.all.first?.failure, problems.all.count == 1 else {
            Issue.record("\(problems.all)")
            return
        }
        #expect(problems.lines.first?.contains("/mcp: it answered HTTP \(status)") == true, "\(problems.lines)")
        // No initialize: a refusal of who asks is no sign of an era.
        #expect(methods(server) == ["server/discover"])
        #expect(MCPEraMemory(directory: memory).recall(entry) == nil)
    }

    @Test("the era found is remembered: the next run sends no probe, over HTTP and stdio")
    func remembered() async throws {
        let log = MCPTestServers.logPath()
        let server = try await ScriptMCPServer.start("modern_only.py", arguments: ["http", log])
        defer { server.stop() }
        let memory = eraDirectory()
        let entries = [MCPServerEntry(name: "modern", url: server.url), try modernOnly(log, name: "local")]
        for _ in 0..<2 {
            let source = source(entries, memory: memory)
            #expect(await source.tools().count == 16)
            #expect(await source.statuses().map(\.offersPrompts) == [true, true])
            await source.close()
        }
        let sent = modernOnlyLog(log)
        // One probe a server, the first run's; then tools/list straight away.
        for transport in ["http", "stdio"] {
            let own = sent.filter { $0["transport"] as? String == transport }.map { $0["method"] as? String }
            #expect(
                own == ["server/discover", "tools/list", "resources/list", "tools/list", "resources/list"],
                "\(transport): \(own)")
        }
        // The file: 0600, and neither the URL nor the command line in it.
        let path = memory.file("mcp-eras.json")
        #expect(FileSystem.mode(path).map { $0 & 0o777 } == 0o600)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("127.0.0.1") && !text.contains("modern_only") && !text.contains(log))
        #expect(text.contains("2026-07-28"))

        // A server of the initialize era: the next run sends initialize straight away.
        let old = try legacyHTTPServer()
        defer { LoopbackTestHelpers.stopInBackground(old) }
        for _ in 0..<2 {
            let source = source([MCPServerEntry(name: "old", url: "http://127.0.0.1:\(old.port)/mcp")], memory: memory)
            #expect(await source.tools().map(\.name) == ["old__t"])
            await source.close()
        }
        #expect(
            methods(old).filter { $0 != "-" } == [
                "server/discover", "initialize", "notifications/initialized", "tools/list",
                "initialize", "notifications/initialized", "tools/list",
            ])
    }

    @Test("a remembered era the server no longer speaks: -32022 to initialize, and the era it names is spoken")
    func rememberedEraRefused() async throws {
        let log = MCPTestServers.logPath()
        let server = try await ScriptMCPServer.start("modern_only.py", arguments: ["http", log])
        defer { server.stop() }
        let memory = eraDirectory()
        let entry = MCPServerEntry(name: "modern", url: server.url)
        MCPEraMemory(directory: memory).remember(.init(version: "2025-11-25"), for: entry)
        let problems = ReportedProblems()
        let source = source([entry], memory: memory, problems: problems)
        #expect(await source.tools().count == 8)
        await source.close()
        #expect(problems.all.isEmpty, "\(problems.lines)")
        // initialize was refused with the versions the server speaks; one of them was spoken.
        #expect(
            modernOnlyLog(log).map { $0["method"] as? String } == [
                "initialize", "server/discover", "tools/list", "resources/list",
            ])
        #expect(MCPEraMemory(directory: memory).recall(entry)?.version == "2026-07-28")

        // And the other way: remembered modern, the server now of the initialize era.
        let old = try legacyHTTPServer()
        defer { LoopbackTestHelpers.stopInBackground(old) }
        let oldEntry = MCPServerEntry(name: "old", url: "http://127.0.0.1:\(old.port)/mcp")
        MCPEraMemory(directory: memory).remember(.init(version: "2026-07-28"), for: oldEntry)
        let again = self.source([oldEntry], memory: memory, problems: problems)
        #expect(await again.tools().map(\.name) == ["old__t"])
        await again.close()
        #expect(problems.all.isEmpty, "\(problems.lines)")
        #expect(
            methods(old).prefix(5) == [
                "tools/list", "server/discover", "initialize", "notifications/initialized", "tools/list",
            ])
        #expect(MCPEraMemory(directory: memory).recall(oldEntry)?.version == "2025-06-18")
    }

    @Test("a pinned era: no probe; 2026-07-28 straight away, 2025-11-25 by initialize")
    func pinned() async throws {
        let log = MCPTestServers.logPath()
        var modern = try modernOnly(log)
        modern.protocolVersion = "2026-07-28"
        let memory = eraDirectory()
        let source = source([modern, try sdkEntry(pin: "2025-11-25")], memory: memory)
        #expect(await source.tools().contains { $0.name == "sdk__reserve" })
        #expect(await source.statuses().map(\.protocolVersion) == ["2026-07-28", "2025-11-25"])
        await source.close()
        // No probe first: tools/list straight away; what the server offers was asked for (by
        // server/discover) only when the statuses needed it, and never initialize.
        #expect(
            modernOnlyLog(log).map { $0["method"] as? String } == ["tools/list", "server/discover", "resources/list"])
        // A pinned era is not remembered.
        #expect(!FileManager.default.fileExists(atPath: memory.file("mcp-eras.json")))

        // A version chat does not speak: one line naming the server and the versions it may be.
        let read = MCPServerEntry.entries(
            in: try JSONParser.parse(#"{"x": {"command": "y", "protocol_version": "2024-01-01"}}"#), environment: [:])
        #expect(read.entries.isEmpty)
        #expect(
            read.problems.map(ErrorWording.line(for:)) == [
                "MCP server \"x\": protocol_version must be one of the MCP versions chat speaks: "
                    + "2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05"
            ])
    }

    @Test("ttlMs: a list is kept while fresh, and asked for again once stale (0: every time)", arguments: [0, 600_000])
    func ttl(milliseconds: Int) async throws {
        let log = MCPTestServers.logPath()
        let server = try await ScriptMCPServer.start("modern_only.py", arguments: ["http", log, String(milliseconds)])
        defer { server.stop() }
        let source = source([MCPServerEntry(name: "modern", url: server.url)])
        for _ in 0..<3 { #expect(await source.tools().count == 8) }
        await source.close()
        let lists = modernOnlyLog(log).filter { $0["method"] as? String == "tools/list" }
        #expect(lists.count == (milliseconds == 0 ? 3 : 1))
    }

    @Test("a broken answer: a list is asked for again as a new request; a tool call only when idempotent")
    func brokenAnswers() async throws {
        let log = MCPTestServers.logPath()
        let server = try await ScriptMCPServer.start("modern_only.py", arguments: ["http", log, "0", "break-list"])
        defer { server.stop() }
        let problems = ReportedProblems()
        let source = source([MCPServerEntry(name: "modern", url: server.url)], problems: problems)
        let tools = await source.tools()
        #expect(tools.count == 8)
        let once = await source.call(
            ToolCall(id: "1", name: "modern__once", arguments: .object([:])),
            tool: try #require(tools.first { $0.name == "modern__once" }))
        let again = await source.call(
            ToolCall(id: "2", name: "modern__again", arguments: .object([:])),
            tool: try #require(tools.first { $0.name == "modern__again" }))
        await source.close()
        #expect(problems.all.isEmpty, "\(problems.lines)")
        #expect(once.isError && once.failure == .callInterrupted)
        #expect(ErrorWording.text(for: .callInterrupted).contains("was not run again"))
        #expect(!again.isError && again.text == "again ran 2 times")
        let sent = modernOnlyLog(log)
        let lists = sent.filter { $0["method"] as? String == "tools/list" }
        #expect(lists.count == 2)
        #expect(lists.allSatisfy { $0["new_id"] as? Bool == true })
        #expect(sent.filter { $0["name"] as? String == "once" }.count == 1)
        let agains = sent.filter { $0["name"] as? String == "again" }
        #expect(agains.count == 2 && agains.allSatisfy { $0["new_id"] as? Bool == true })
    }
}
