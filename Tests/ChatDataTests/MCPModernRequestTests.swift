import ChatDomain
import ChatTestSupport
import Foundation
import Synchronization
import Testing

@testable import ChatJSON
@testable import ChatMCP

/// A `ServerQuestionAnswerer` that answers every question with the next of its answers (then
/// declines), and keeps the questions it was asked.
final class RecordingAnswerer: ServerQuestionAnswerer {
    private let state: Mutex<(answers: [ServerAnswer], asked: [ServerQuestion])>

    init(_ answers: [ServerAnswer]) { state = Mutex((answers, [])) }

    func answer(_ question: ServerQuestion) async -> ServerAnswer {
        state.withLock { state in
            state.asked.append(question)
            return state.answers.isEmpty ? .decline : state.answers.removeFirst()
        }
    }

    /// The questions asked, in order.
    var asked: [ServerQuestion] { state.withLock { $0.asked } }
}

/// The modern era's requests against the tests' own server that speaks only 2026-07-28
/// (`modern_only.py`), over stdio and HTTP: `input_required` answered and the request sent again
/// with a new id and the `requestState` untouched, prompts over pages, a resource behind a
/// question, structured content checked against the output schema, and -32022 retried once.
@Suite("MCP's modern requests", .serialized, .timeLimit(.minutes(4)))
struct MCPModernRequestTests {
    /// A source of `modern_only.py` over `transport` (`stdio`, `http`), with `answerer`; the
    /// HTTP server, when there is one, is `stop`ped by the caller.
    private func modern(
        _ transport: String, log: String, answerer: (any ServerQuestionAnswerer)?, problems: ReportedProblems
    ) async throws -> (MCPToolSource, ScriptMCPServer?) {
        let entry: MCPServerEntry
        var server: ScriptMCPServer?
        if transport == "http" {
            let started = try await ScriptMCPServer.start("modern_only.py", arguments: ["http", log])
            server = started
            entry = MCPServerEntry(name: "modern", url: started.url)
        } else {
            entry = MCPServerEntry(
                name: "modern", command: try MCPTestServers.python.get(),
                arguments: [MCPTestServers.script("modern_only.py"), "stdio", log])
        }
        let source = MCPToolSource(
            [entry], clientVersion: "9.9", logPath: { _ in nil }, report: problems.report, answerer: answerer)
        return (source, server)
    }

    /// The offered tool whose server's name for it is `tool`.
    private func tool(_ tool: String, of source: MCPToolSource) async throws -> ToolDefinition {
        try #require(await source.tools().first { $0.origin?.tool == tool })
    }

    @Test(
        "input_required: the question asked, the call sent again with a new id and the requestState as it was",
        arguments: ["stdio", "http"])
    func inputRequired(transport: String) async throws {
        let log = MCPTestServers.logPath()
        let answerer = RecordingAnswerer([.accept(["name": .string("Ada"), "age": .number(36)])])
        let problems = ReportedProblems()
        let (source, server) = try await modern(transport, log: log, answerer: answerer, problems: problems)
        defer { server?.stop() }
        let ask = try await tool("ask", of: source)
        let result = await source.call(ToolCall(id: "c1", name: ask.name, arguments: .object([:])), tool: ask)
        await source.close()
        #expect(problems.all.isEmpty, "\(problems.lines)")
        #expect(!result.isError && result.text == "Hello Ada (36)")
        // The question, as the server's schema put it.
        #expect(
            answerer.asked == [
                ServerQuestion(
                    server: "modern", message: "Who are you?",
                    kind: .form([
                        ServerQuestionField(
                            name: "name", title: "Name", isRequired: true,
                            kind: .text(format: nil, minLength: nil, maxLength: nil)),
                        ServerQuestionField(
                            name: "age", kind: .number(integer: true, minimum: 0, maximum: nil)),
                    ]))
            ])
        let calls = modernOnlyLog(log).filter { $0["method"] as? String == "tools/call" }
        try #require(calls.count == 2)
        #expect(calls[0]["inputResponses"] is NSNull && calls[0]["requestState"] is NSNull)
        #expect(calls[1]["new_id"] as? Bool == true)
        #expect("\(calls[0]["id"] ?? "")" != "\(calls[1]["id"] ?? "")")
        #expect(calls[1]["requestState"] as? String == "state+/=opaque")
        let response = try #require((calls[1]["inputResponses"] as? [String: Any])?["who"] as? [String: Any])
        #expect(response["action"] as? String == "accept")
        #expect((response["content"] as? [String: Any])?["name"] as? String == "Ada")
        #expect((response["content"] as? [String: Any])?["age"] as? Int == 36)
    }

    @Test(
        "a page to open: declined (no one to ask), the call sent again with no requestState",
        arguments: ["stdio", "http"])
    func pageDeclined(transport: String) async throws {
        let log = MCPTestServers.logPath()
        let problems = ReportedProblems()
        let (source, server) = try await modern(transport, log: log, answerer: nil, problems: problems)
        defer { server?.stop() }
        let page = try await tool("open_page", of: source)
        let result = await source.call(ToolCall(id: "c1", name: page.name, arguments: .object([:])), tool: page)
        await source.close()
        // The server refuses a requestState it did not give, so this text says none was sent.
        #expect(result.text == "page: decline")
        let calls = modernOnlyLog(log).filter { $0["method"] as? String == "tools/call" }
        #expect(calls.count == 2 && calls.allSatisfy { $0["requestState"] is NSNull })
        #expect(calls.last?["new_id"] as? Bool == true)
    }

    @Test("a page to open, accepted: the URL is the server's, and the answer goes back", arguments: ["stdio"])
    func pageAccepted(transport: String) async throws {
        let log = MCPTestServers.logPath()
        let answerer = RecordingAnswerer([.accept([:])])
        let (source, server) = try await modern(transport, log: log, answerer: answerer, problems: ReportedProblems())
        defer { server?.stop() }
        let page = try await tool("open_page", of: source)
        let result = await source.call(ToolCall(id: "c1", name: page.name, arguments: .object([:])), tool: page)
        await source.close()
        #expect(result.text == "page: accept")
        #expect(answerer.asked.map(\.kind) == [.url("https://example.com/connect?x=1")])
        #expect(answerer.asked.map(\.message) == ["Connect your account."])
    }

    @Test(
        "prompts over two pages, and a prompt behind a question; a resource behind one too",
        arguments: ["stdio", "http"])
    func promptsAndResources(transport: String) async throws {
        let log = MCPTestServers.logPath()
        let answerer = RecordingAnswerer([.accept(["tone": .string("dry")]), .accept(["sure": .bool(true)])])
        let problems = ReportedProblems()
        let (source, server) = try await modern(transport, log: log, answerer: answerer, problems: problems)
        defer { server?.stop() }
        let prompts = await source.prompts()
        let messages = try await source.prompt(server: "modern", name: "greet", arguments: ["who": "Ada"]).get()
        let contents = try await source.readResource(server: "modern", uri: "file:///notes.txt").get()
        let templates = try await source.resourceTemplates(server: "modern").get()
        await source.close()
        #expect(problems.all.isEmpty, "\(problems.lines)")
        #expect(prompts.map(\.name) == ["greet", "second", "third"])
        #expect(prompts.first?.arguments == [ToolServerPromptArgument(name: "who", isRequired: true)])
        #expect(messages.messages.map(\.role) == [.user, .assistant])
        #expect(messages.messages.map(\.content) == ["Greet Ada, dry.", "Hello, Ada!"])
        #expect(
            contents == [
                ToolServerResourceContent(uri: "file:///notes.txt", mimeType: "text/plain", body: .text("the notes"))
            ])
        #expect(templates.map(\.uriTemplate) == ["file:///{name}"])
        let sent = modernOnlyLog(log)
        let reads = sent.filter { $0["method"] as? String == "resources/read" }
        #expect(reads.count == 2 && reads.last?["requestState"] as? String == "read-1")
        #expect(reads.last?["new_id"] as? Bool == true)
        #expect(sent.filter { $0["method"] as? String == "prompts/list" }.count == 2)
    }

    @Test("structuredContent that breaks the tool's outputSchema: an error result, and one problem for the person")
    func structuredMismatch() async throws {
        let log = MCPTestServers.logPath()
        let problems = ReportedProblems()
        let (source, server) = try await modern("stdio", log: log, answerer: nil, problems: problems)
        defer { server?.stop() }
        let shape = try await tool("shape", of: source)
        let result = await source.call(ToolCall(id: "c1", name: shape.name, arguments: .object([:])), tool: shape)
        await source.close()
        #expect(result.isError)
        guard case .structuredMismatch = result.failure else {
            Issue.record("not a mismatch: \(String(describing: result.failure))")
            return
        }
        #expect(problems.all.count == 1)
        #expect(problems.all.first?.step == .calling(tool: "shape"))
    }

    @Test("-32022 to a request of the era it chose: probed again once, the request sent again once, then given up")
    func unsupportedVersionRetriedOnce() async throws {
        let server = try LoopbackServer { request, _ in
            guard let message = try? JSONParser.parse(request.bodyText), let method = message["method"]?.string
            else { return ServerStep.json(status: 400, "{}") }
            let id = message["id"]?.jsonText ?? "null"
            if method == "server/discover" {
                return ServerStep.json(
                    status: 200,
                    #"{"jsonrpc":"2.0","id":\#(id),"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"ttlMs":0,"cacheScope":"private"}}"#
                )
            }
            return ServerStep.json(
                status: 400,
                #"{"jsonrpc":"2.0","id":\#(id),"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"2026-07-28"}}}"#
            )
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let problems = ReportedProblems()
        let source = MCPToolSource(
            [MCPServerEntry(name: "odd", url: "http://127.0.0.1:\(server.port)/mcp")], clientVersion: "9.9",
            logPath: { _ in nil }, report: problems.report)
        #expect(await source.tools().isEmpty)
        await source.close()
        #expect(methods(server) == ["server/discover", "tools/list", "server/discover", "tools/list"])
        #expect(problems.all.count == 1 && problems.all.first?.step == .listing)
    }

    @Test("a probe answered -32022 naming only versions chat does not speak: one request, one problem naming them")
    func noVersionInCommon() async throws {
        let server = try LoopbackServer { request, _ in
            let id = (try? JSONParser.parse(request.bodyText))?["id"]?.jsonText ?? "null"
            return ServerStep.json(
                status: 400,
                #"{"jsonrpc":"2.0","id":\#(id),"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2099-01-01"]}}}"#
            )
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let problems = ReportedProblems()
        let source = MCPToolSource(
            [MCPServerEntry(name: "future", url: "http://127.0.0.1:\(server.port)/mcp")], clientVersion: "9.9",
            logPath: { _ in nil }, report: problems.report)
        #expect(await source.tools().isEmpty)
        await source.close()
        #expect(methods(server) == ["server/discover"])
        #expect(problems.all.map(\.failure) == [.unsupportedProtocol(version: "2099-01-01")])
    }
}
