import ChatDomain
import ChatTestSupport
import Foundation
import Glibc
import Testing

@testable import ChatJSON
@testable import ChatMCP

extension MCPServerEntry {
    /// A Streamable HTTP server of the initialize era, pinned to it (`protocol_version`).
    static func legacy(name: String, url: String, headers: [String: String] = [:]) -> MCPServerEntry {
        var entry = MCPServerEntry(name: name, url: url, headers: headers)
        entry.protocolVersion = "2025-11-25"
        return entry
    }
}

extension PythonMCPServer {
    /// The HTTP requests it has answered, in order.
    var requests: [JSONValue] { requestLines.compactMap { try? JSONParser.parse($0) } }
}

@Suite("MCP over Streamable HTTP", .serialized, .timeLimit(.minutes(3))) struct MCPHTTPTests {
    /// The source of one server `web` at `url`, read from a config as a person writes it, with an
    /// `Authorization` header from `${MCP_TEST_TOKEN}`.
    private func source(
        url: String, token: String, timeout: Double = 20, problems: ReportedProblems = ReportedProblems(),
        pin: String? = nil
    ) throws -> MCPToolSource {
        let pinned = pin.map { #", "protocol_version": "\#($0)""# } ?? ""
        let config =
            #"{"web": {"url": "\#(url)", "headers": {"Authorization": "Bearer ${MCP_TEST_TOKEN}"}, "timeout": \#(timeout)\#(pinned)}}"#
        let read = MCPServerEntry.entries(in: try JSONParser.parse(config), environment: ["MCP_TEST_TOKEN": token])
        try #require(read.problems.isEmpty)
        var entries = read.entries
        entries[0].startTimeout = timeout
        return MCPToolSource(entries, clientVersion: "test", logPath: { _ in nil }, report: problems.report)
    }

    /// In `sse` mode pinned to the initialize era (its session, and a ping of the server's, are
    /// the era's); in `json` mode the era the probe finds: 2026-07-28.
    @Test(
        "a server of the mcp SDK: tools/list and tools/call, the header from ${VAR}, the session kept and ended",
        arguments: ["sse", "json"])
    func pythonServer(mode: String) async throws {
        let server = try await PythonMCPServer.start(mode: mode)
        defer { server.stop() }
        let token = "tok-\(UUID().uuidString.prefix(8))"
        let problems = ReportedProblems()
        let source = try source(
            url: server.url, token: token, problems: problems, pin: mode == "sse" ? "2025-11-25" : nil)
        let tools = await source.tools()
        #expect(problems.all.isEmpty, "\(problems.lines)")
        let add = try #require(tools.first { $0.name == "web__add" })
        #expect(add.description == "Adds two whole numbers.")
        #expect(add.parameters["properties"]?["a"]?["type"] == .string("integer"))

        // In `sse` mode the tool pings chat and waits for the answer: a result means it came.
        let sum = await source.call(
            ToolCall(id: "c1", name: "web__add", arguments: .object(["a": .number(2), "b": .number(40)])))
        #expect(!sum.isError, "\(sum.text)")
        #expect(sum.text == "42")
        let wrong = await source.call(ToolCall(id: "c2", name: "web__add", arguments: .object(["a": .string("x")])))
        #expect(wrong.isError)
        await source.close()

        let requests = server.requests
        let posts = requests.filter { $0["method"] == .string("POST") }
        #expect(posts.count >= (mode == "sse" ? 5 : 4), "\(requests)")
        #expect(posts.allSatisfy { $0["authorization"] == .string("Bearer \(token)") })
        #expect(posts.allSatisfy { $0["accept"] == .string("application/json, text/event-stream") })
        #expect(posts.dropFirst().allSatisfy { $0["version"]?.string?.hasPrefix("20") == true })
        #expect(posts.contains { $0["type"] == .string(mode == "sse" ? "text/event-stream" : "application/json") })
        if mode == "sse" {
            // The session the server gave at initialize goes back with every later request, and
            // is ended at close.
            let session = try #require(posts.first?["given"]?.string)
            #expect(posts.first?["session"] == .null)
            #expect(posts.dropFirst().allSatisfy { $0["session"] == .string(session) })
            #expect(requests.last?["method"] == .string("DELETE"))
            #expect(requests.last?["session"] == .string(session))
            // The answer to the server's ping: a POST of its own, accepted.
            #expect(posts.filter { $0["status"] == .number(202) }.count >= 2)
        } else {
            // The modern era: no session, each POST says its version and method.
            #expect(posts.allSatisfy { $0["session"] == .null })
            #expect(posts.allSatisfy { $0["version"] == .string("2026-07-28") })
            #expect(posts.first?["mcp_method"] == .string("server/discover"))
            #expect(posts.contains { $0["mcp_method"] == .string("tools/call") && $0["mcp_name"] == .string("add") })
            #expect(!requests.contains { $0["method"] == .string("DELETE") })
        }
    }

    /// A scripted MCP server's answer to `request`: `initialize` with `session` given, a
    /// notification accepted, `tools/list` with `tools`; anything else by `other`.
    private static func answer(
        _ request: RecordedRequest, session: String? = nil, tools: [String] = ["t"],
        other: (String, JSONValue) -> [ServerStep] = { _, _ in [] }
    ) -> [ServerStep] {
        guard let message = try? JSONParser.parse(request.bodyText), let method = message["method"]?.string else {
            return ServerStep.json(status: 400, "{}")
        }
        let id = message["id"]?.jsonText ?? "null"
        let headers = session.map { [("Mcp-Session-Id", $0)] } ?? []
        switch method {
        case "initialize":
            return ServerStep.json(
                status: 200,
                #"{"jsonrpc":"2.0","id":\#(id),"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"0"}}}"#,
                headers: headers)
        case _ where message["id"] == nil:
            return [.head(status: 202, headers: [("Content-Length", "0")], chunked: false), .end]
        case "tools/list":
            let list = tools.map { #"{"name":"\#($0)","inputSchema":{"type":"object"}}"# }.joined(separator: ",")
            return ServerStep.json(status: 200, #"{"jsonrpc":"2.0","id":\#(id),"result":{"tools":[\#(list)]}}"#)
        default:
            return other(method, message)
        }
    }

    @Test("a server answering garbage, 500, a page or nothing at all: one problem line each, no secret in it")
    func badServers() async throws {
        let secret = "hdr-\(UUID().uuidString.prefix(8))"
        let garbage = try LoopbackServer { request, _ in ServerStep.json(status: 200, "this is { not json") }
        let failing = try LoopbackServer { request, _ in
            // It echoes the header it got, and the token in it, as some servers' error pages do.
            let header = request.header("authorization") ?? ""
            return ServerStep.json(status: 500, "got \(header), token \(header.dropFirst(7))")
        }
        // The token where the line is cut (200 characters): redacted first, so no part of it shows.
        let cut = try LoopbackServer { request, _ in
            let header = request.header("authorization") ?? ""
            return ServerStep.json(status: 500, String(repeating: "x", count: 182) + " " + header)
        }
        // A JSON-RPC error whose message repeats the header.
        let rpcError = try LoopbackServer { request, _ in
            let id = (try? JSONParser.parse(request.bodyText))?["id"]?.jsonText ?? "null"
            let header = request.header("authorization") ?? ""
            return ServerStep.json(
                status: 200, #"{"jsonrpc":"2.0","id":\#(id),"error":{"code":-32000,"message":"bad \#(header)"}}"#)
        }
        let page = try LoopbackServer { _, _ in
            [.head(status: 200, headers: [("Content-Type", "text/html")], chunked: false), .text("<html>"), .end]
        }
        let good = try LoopbackServer { request, _ in Self.answer(request) }
        defer { [garbage, failing, cut, rpcError, page, good].forEach(LoopbackTestHelpers.stopInBackground) }
        try await RefusingPort.with { refused in
            func entry(_ name: String, _ port: Int) -> MCPServerEntry {
                // Servers of the initialize era, pinned to it (the probe's own tests are in MCPErasTests).
                MCPServerEntry.legacy(
                    name: name, url: "http://user:pw@127.0.0.1:\(port)/mcp?key=QUERYSECRET",
                    headers: ["Authorization": "Bearer \(secret)"])
            }
            let entries = [
                entry("garbage", garbage.port), entry("failing", failing.port), entry("page", page.port),
                entry("refused", refused), entry("cut", cut.port), entry("rpc", rpcError.port),
                entry("good", good.port),
            ]
            let reported = ReportedProblems()
            let source = MCPToolSource(entries, clientVersion: "test", logPath: { _ in nil }, report: reported.report)
            #expect(await source.tools().map(\.name) == ["good__t"])
            #expect(reported.all.map(\.server) == ["garbage", "failing", "page", "refused", "cut", "rpc"])
            let lines = reported.lines
            for (problem, line) in zip(reported.all, lines) {
                #expect(!line.contains(secret.prefix(6)), "\(line)")
                #expect(!line.contains(secret) && !line.contains("QUERYSECRET") && !line.contains("pw@"))
                // Each names its server and the endpoint, made safe to show.
                #expect(line.hasPrefix("MCP server \"\(problem.server)\": http://127.0.0.1:"), "\(line)")
                #expect(!line.contains("\n"))
            }
            #expect(reported.all[0].failure == .answerNotJSON)
            #expect(lines[0].hasSuffix("/mcp: its answer is not JSON"))
            #expect(lines[1].contains("/mcp: it answered HTTP 500: got [redacted], token [redacted]"))
            #expect(lines[2].hasSuffix("/mcp: it answered with text/html, not JSON"))
            #expect(lines[3].contains("\(refused)/mcp: "))
            #expect(reported.all[5].failure == .serverError("bad [redacted]"), "\(lines[5])")
            #expect(failing.requests.first?.header("authorization") == "Bearer \(secret)")
            await source.close()
        }
    }

    @Test("a server that does not answer: a timeout naming it, within the time")
    func silentServer() async throws {
        let silent = try LoopbackServer { _, _ in [.stall(30)] }
        defer { LoopbackTestHelpers.stopInBackground(silent) }
        var entry = MCPServerEntry.legacy(name: "mute", url: "http://127.0.0.1:\(silent.port)/mcp")
        entry.startTimeout = 0.5
        let problems = ReportedProblems()
        let source = MCPToolSource([entry], clientVersion: "test", logPath: { _ in nil }, report: problems.report)
        let clock = ContinuousClock.now
        #expect(await source.tools().isEmpty)
        #expect(ContinuousClock.now - clock < .seconds(5))
        #expect(problems.lines == ["MCP server \"mute\": http://127.0.0.1:\(silent.port)/mcp: no answer within 0.5 s"])
        await source.close()
    }

    @Test("an expired session (404) is opened again once, and the new session id sent")
    func expiredSession() async throws {
        let server = try LoopbackServer { request, index in
            let session = index < 3 ? "first" : "second"
            if request.header("mcp-session-id") == "first", index >= 2 { return ServerStep.json(status: 404, "{}") }
            return Self.answer(request, session: session)
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let problems = ReportedProblems()
        let source = MCPToolSource(
            [MCPServerEntry.legacy(name: "s", url: "http://127.0.0.1:\(server.port)/mcp")], clientVersion: "test",
            logPath: { _ in nil }, report: problems.report)
        #expect(await source.tools().map(\.name) == ["s__t"])
        #expect(problems.all.isEmpty)
        await source.close()
        let sent = server.requests.map {
            "\($0.method) \((try? JSONParser.parse($0.bodyText))?["method"]?.string ?? "-") \($0.header("mcp-session-id") ?? "-")"
        }
        #expect(
            sent == [
                "POST initialize -", "POST notifications/initialized first", "POST tools/list first",
                "POST initialize -", "POST notifications/initialized second", "POST tools/list second",
                "DELETE - second",
            ])
        #expect(server.requests[2].header("mcp-protocol-version") == "2025-06-18")
    }

    @Test("a server that does not answer the session's DELETE: closed within 3 s all the same")
    func slowDelete() async throws {
        let server = try LoopbackServer { request, _ in
            request.method == "DELETE" ? [.stall(20)] : Self.answer(request, session: "s1")
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let source = MCPToolSource(
            [MCPServerEntry.legacy(name: "s", url: "http://127.0.0.1:\(server.port)/mcp")], clientVersion: "test"
        ) { _ in "/dev/null" }
        #expect(await source.tools().map(\.name) == ["s__t"])
        let clock = ContinuousClock.now
        await source.close()
        #expect(ContinuousClock.now - clock < .seconds(3.5))
        #expect(server.requests.last?.method == "DELETE")
    }

    @Test("a cancelled call ends at once and the server is told (notifications/cancelled)")
    func cancelledCall() async throws {
        let server = try LoopbackServer { request, _ in
            Self.answer(request) { _, _ in [.stall(20)] }
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let source = MCPToolSource(
            [MCPServerEntry.legacy(name: "s", url: "http://127.0.0.1:\(server.port)/mcp")], clientVersion: "test"
        ) { _ in "/dev/null" }
        #expect(await source.tools().map(\.name) == ["s__t"])
        let task = Task { await source.call(ToolCall(id: "c", name: "s__t", arguments: .object([:]))) }
        try await Task.sleep(for: .milliseconds(300))
        let clock = ContinuousClock.now
        task.cancel()
        let result = await task.value
        #expect(ContinuousClock.now - clock < .seconds(2))
        #expect(result.isError && result.failure == .cancelled)
        var told: JSONValue?
        for _ in 0..<100 where told == nil {
            told = server.requests.compactMap { try? JSONParser.parse($0.bodyText) }
                .first { $0["method"] == .string("notifications/cancelled") }
            try await Task.sleep(for: .milliseconds(20))
        }
        let call = server.requests.compactMap { try? JSONParser.parse($0.bodyText) }
            .first { $0["method"] == .string("tools/call") }
        #expect(told?["params"]?["requestId"] == call?["id"])
        await source.close()
    }

    @Test("two tools whose offered names clash: one problem line, the first kept; long names stay apart")
    func nameClash() async throws {
        let server = try LoopbackServer { request, _ in Self.answer(request, tools: ["a.b", "a_b", "c"]) }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let reported = ReportedProblems()
        let source = MCPToolSource(
            [MCPServerEntry.legacy(name: "s", url: "http://127.0.0.1:\(server.port)/mcp")], clientVersion: "test",
            logPath: { _ in nil }, report: reported.report)
        #expect(await source.tools().map(\.name) == ["s__a_b", "s__c"])
        #expect(await source.tools().map(\.name) == ["s__a_b", "s__c"])
        let problems = reported.all
        #expect(problems.count == 1)
        #expect(problems.first?.server == "s")
        #expect(
            problems.first?.failure
                == .nameTaken(tool: "a_b", offeredAs: "s__a_b", takenBy: ToolOrigin(server: "s", tool: "a.b")))
        #expect(
            reported.lines.first?.hasSuffix(
                #"its tool "a_b" is left out: it would be offered as s__a_b, the name its tool "a.b" has"#) == true)
        await source.close()

        let long = String(repeating: "x", count: 70)
        let one = MCPToolSource.offeredName(server: "s", tool: long + "1")
        let two = MCPToolSource.offeredName(server: "s", tool: long + "2")
        #expect(one.count == 64 && two.count == 64 && one != two)
        #expect(one == MCPToolSource.offeredName(server: "s", tool: long + "1"))
        #expect(one.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") })
    }

    @Test("the endpoint as shown: no credentials, query or fragment")
    func place() {
        #expect(
            MCPHTTPConnection.place(of: "https://u:p@example.com:8443/a/mcp?k=v#f") == "https://example.com:8443/a/mcp")
        #expect(MCPHTTPConnection.place(of: "http://example.com") == "http://example.com")
    }
}
