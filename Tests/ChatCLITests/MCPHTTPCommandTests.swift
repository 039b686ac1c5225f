import ChatDomain
import ChatTestSupport
import Foundation
import Testing

/// Tools from a Streamable HTTP MCP server through the built `chat`, off a terminal: a server
/// written with the PyPI `mcp` SDK (`PythonMCPServer`) and the scripted loopback chat server,
/// the token from `${VAR}` sent and never shown or stored; a server that is down; an https
/// server trusted with the chat server's CA setting, through a proxy, and `-v` showing its
/// requests.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct MCPHTTPCommandTests {
    /// A config whose `mcp_servers` has `docs` at `url`, its token from `${DOCS_TOKEN}`.
    /// `pin`: its `protocol_version`.
    private func docsConfig(_ chat: ChatBinary, url: String, pin: String? = nil) throws -> String {
        let pinned = pin.map { #", "protocol_version": "\#($0)""# } ?? ""
        return try chat.writeConfig(
            #"{"mcp_servers": {"docs": {"url": "\#(url)", "headers": {"Authorization": "Bearer ${DOCS_TOKEN}"}\#(pinned)}}}"#
        )
    }

    /// A chat server that, offered `docs__add`, asks for it with 20261126 and 4242, and answers
    /// `text` once it has the result (or when the tool is not offered).
    private func addingServer(_ text: String = "Added.") throws -> LoopbackServer {
        try LoopbackServer { request, _ in
            request.bodyText.contains(#""name":"docs__add""#) && !request.bodyText.contains(#""role":"tool""#)
                ? toolCallAnswer("docs__add", arguments: #"{"a": 20261126, "b": 4242}"#)
                : ServerStep.sse([ServerStep.chatChunk(text), ServerStep.finishChunk()])
        }
    }

    /// Every file's bytes under `directory`, as text.
    private func contents(under directory: String) -> String {
        let files = FileManager.default.enumerator(atPath: directory)?.compactMap { $0 as? String } ?? []
        return files.compactMap { FileManager.default.contents(atPath: directory + "/" + $0) }
            .map { String(decoding: $0, as: UTF8.self) }.joined()
    }

    @Test func theSDKServersToolAnswersAndTheSecondRequestCarriesItsResult() async throws {
        let token = "docs-\(UUID().uuidString.prefix(12))"
        let chat = ChatBinary(environment: ["DOCS_TOKEN": token])
        let mcp = try await PythonMCPServer.start(mode: "sse")
        defer { mcp.stop() }
        // The initialize era, pinned: its session, ended at the end, and the tool's ping.
        let config = try docsConfig(chat, url: mcp.url, pin: "2025-11-25")
        let server = try addingServer("The sum is in.")
        defer { server.stop() }
        let result = try await chat.run(
            ["--config", config, "--base-url", server.baseURL, "-T", "docs", "--yes-tools", "docs", "Add them"],
            timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "The sum is in.\n")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(lines.first?.hasPrefix(#"⚙ docs.add {"a":20261126,"b":4242} · "#) == true, "\(result.stderr)")
        #expect(lines.first?.contains(" · ok · ") == true)

        // The tools went with the first request; the second carries the sum the Python tool made.
        #expect(server.requests.count == 2)
        #expect((try server.request(0)).bodyText.contains(#""name":"docs__add""#))
        let tool = try #require(try sentMessages(try server.request(1)).last)
        #expect(tool["role"] as? String == "tool")
        #expect(tool["tool_call_id"] as? String == "call_1")
        #expect(tool["content"] as? String == "20265368")

        // The server got the token with every request; chat showed and stored it nowhere.
        let requests = mcp.requestLines.compactMap { JSONValue(jsonText: $0) }
        let posts = requests.filter { $0["method"] == .string("POST") }
        #expect(posts.count >= 4, "\(requests)")
        #expect(posts.allSatisfy { $0["authorization"] == .string("Bearer \(token)") })
        #expect(requests.last?["method"] == .string("DELETE"))
        let stored = contents(under: chat.home + "/data")
        #expect(stored.contains("20265368"), "the history holds the tool's result")
        for text in [result.stdout, result.stderr, stored] { #expect(!text.contains(token)) }
    }

    @Test func aServerThatIsDownIsOneLineWithItsURLAndTheChatAnswers() async throws {
        let chat = ChatBinary(environment: ["DOCS_TOKEN": "tok-DOWN-0123456789"])
        let server = try LoopbackServer { _, _ in
            ServerStep.sse([ServerStep.chatChunk("hi"), ServerStep.finishChunk()])
        }
        defer { server.stop() }
        try await RefusingPort.with { port in
            let config = try docsConfig(chat, url: "http://127.0.0.1:\(port)/mcp")
            let result = try await chat.run([
                "--config", config, "--base-url", server.baseURL, "-T", "docs", "--yes-tools", "docs", "hello",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "hi\n")
            #expect(
                result.stderr.hasPrefix("chat: warning: MCP server \"docs\": http://127.0.0.1:\(port)/mcp: "),
                "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(!result.stderr.contains("its log"))
            #expect(!result.stderr.contains("DOWN"))
            #expect(!(try server.request(0)).bodyText.contains("\"tools\""))
        }
    }

    @Test(.enabled(if: TestCA.isAvailable, "needs openssl (scripts/deps --tests)"))
    func anHTTPSServerIsTrustedWithTheChatServersCASetting() async throws {
        let token = "docs-\(UUID().uuidString.prefix(12))"
        let chat = ChatBinary(environment: ["DOCS_TOKEN": token])
        let ca = try await TestCA.make(chat)
        let mcp = try await PythonMCPServer.start(mode: "json", certificate: ca.serverCertificate, key: ca.serverKey)
        defer { mcp.stop() }
        let config = try docsConfig(chat, url: mcp.url)
        let server = try addingServer()
        defer { server.stop() }
        let base = ["--config", config, "--base-url", server.baseURL, "-T", "docs", "--yes-tools", "docs"]

        // Untrusted: one line naming the server, its URL and the certificate problem; the chat
        // goes on without its tools.
        let refused = try await chat.run(base + ["Add them"], timeout: 90)
        #expect(refused.status == 0, "\(refused.stderr)")
        #expect(refused.stdout == "Added.\n")
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        #expect(
            refused.stderr.hasPrefix("chat: warning: MCP server \"docs\": \(mcp.url): SSL certificate problem"),
            "\(refused.stderr)")
        #expect(refused.stderr.contains("checked with the system's trust store"))
        #expect(refused.stderr.contains("--ca-cert FILE"))
        #expect(!(try server.request(0)).bodyText.contains("\"tools\""))

        // Trusted with --ca-cert, as the chat server would be, through the proxy of
        // HTTPS_PROXY: the tool runs, and -v shows the MCP requests with the header's value
        // redacted, the proxy and the CA file.
        let proxy = try await CountingProcess(chat, script: CountingProcess.connectProxy)
        var proxied = chat
        proxied.environment["HTTPS_PROXY"] = "http://127.0.0.1:\(proxy.port)"
        let trusted = try await proxied.run(["--ca-cert", ca.certificate, "-v"] + base + ["Add them"], timeout: 90)
        await proxy.stop()
        #expect(!proxy.numbers("tunnel").isEmpty)
        #expect(trusted.stderr.contains("* through the proxy http://127.0.0.1:\(proxy.port) (from HTTPS_PROXY)\n"))
        #expect(trusted.status == 0, "\(trusted.stderr)")
        #expect(trusted.stdout == "Added.\n")
        #expect(trusted.stderr.contains(#"⚙ docs.add {"a":20261126,"b":4242} · "#), "\(trusted.stderr)")
        #expect(trusted.stderr.contains("> POST \(mcp.url)\n"), "\(trusted.stderr)")
        #expect(trusted.stderr.contains("> Authorization: [redacted]\n"))
        #expect(trusted.stderr.contains("* trusting the CA certificates in \(ca.certificate) (from --ca-cert)"))
        #expect(!trusted.stderr.contains(token))
        let last = try #require(server.requests.last)
        let tool = try #require(try sentMessages(last).last)
        #expect(tool["content"] as? String == "20265368")
        let posts = mcp.requestLines.compactMap { JSONValue(jsonText: $0) }.filter { $0["method"] == .string("POST") }
        #expect(!posts.isEmpty && posts.allSatisfy { $0["authorization"] == .string("Bearer \(token)") })

        // --tools-list reads no key, but trusts the server as a chat run does: with --ca-cert
        // (or the config's ca_cert) the tools are listed; without, one line says why.
        let listed = try await chat.run(["--config", config, "--ca-cert", ca.certificate, "--tools-list"], timeout: 90)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("add"), "\(listed.stdout)")
        #expect(listed.stderr == "", "\(listed.stderr)")
        let unlisted = try await chat.run(["--config", config, "--tools-list"], timeout: 90)
        #expect(unlisted.stderr.contains("SSL certificate problem"), "\(unlisted.stderr)")
        #expect(!unlisted.stdout.contains("add"), "\(unlisted.stdout)")
        let configured = try chat.writeConfig(
            #"{"ca_cert": "\#(ca.certificate)", "mcp_servers": {"docs": {"url": "\#(mcp.url)"}}}"#)
        let fromConfig = try await chat.run(["--config", configured, "--tools-list"], timeout: 90)
        #expect(fromConfig.status == 0 && fromConfig.stdout.contains("add"), "\(fromConfig.stderr)")
    }
}
