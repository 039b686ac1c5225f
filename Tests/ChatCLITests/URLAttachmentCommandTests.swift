import ChatTestSupport
import Foundation
import Testing

/// `-f URL` end to end through the built binary: one loopback server is both the API and the web
/// site, so the page's requests would carry the key if anything sent it to the API's origin;
/// they never do, nor a configured header field, nor a cookie. A page that cannot be fetched is
/// one line naming it, exit 1 (2 for what is no URL), and nothing is sent; `-c` sends the stored
/// text again without fetching it.
@Suite(.timeLimit(.minutes(1)))
struct URLAttachmentCommandTests {
    private static let html = """
        <html><head><script>steal()</script></head><body><nav>Menu</nav>
        <h1>Release notes</h1><p>Version <b>2</b> is out.</p><p hidden>internal</p></body></html>
        """

    private func site() throws -> LoopbackServer {
        try LoopbackServer { request, _ in
            switch request.path {
            case "/start":
                return [
                    .head(
                        status: 302,
                        headers: [
                            ("Location", "/notes"), ("Set-Cookie", "session=abc; Path=/"), ("Content-Length", "0"),
                        ],
                        chunked: false), .end,
                ]
            case "/notes":
                let body = Array(Self.html.utf8)
                return [
                    .head(
                        status: 200, headers: [("Content-Type", "text/html"), ("Content-Length", "\(body.count)")],
                        chunked: false), .body(body), .end,
                ]
            case "/big":
                return ServerStep.json(status: 200, "[" + String(repeating: "1,", count: 2000) + "1]")
            case "/v1/chat/completions":
                return ServerStep.sse([ServerStep.chatChunk("read it"), ServerStep.finishChunk()])
            default:
                return ServerStep.json(status: 404, #"{"error": "none"}"#)
            }
        }
    }

    private func lastUserText(_ request: RecordedRequest) throws -> String? {
        let body = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
        return (body["messages"] as? [[String: Any]])?.last { $0["role"] as? String == "user" }?["content"] as? String
    }

    @Test func aPageIsFetchedWithoutTheKeyOrHeadersAndStoredForContinuing() async throws {
        let server = try site()
        defer { server.stop() }
        let chat = ChatBinary(environment: ["OPENAI_API_KEY": "sk-page-test-SECRET"])
        let config = try chat.writeConfig(#"{"headers": {"X-Title": "configured-HEADER"}}"#)
        let page = "http://127.0.0.1:\(server.port)/start"
        let result = try await chat.run(["--config", config, "--base-url", server.baseURL, "-f", page, "summarise"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "read it\n")
        #expect(server.requests.map(\.path) == ["/start", "/notes", "/v1/chat/completions"])
        for fetch in server.requests.prefix(2) {
            #expect(fetch.method == "GET")
            #expect(fetch.header("authorization") == nil)
            #expect(fetch.header("x-title") == nil)
            #expect(fetch.header("cookie") == nil)
            #expect(!fetch.headers.values.contains { $0.contains("SECRET") || $0.contains("HEADER") })
        }
        // The API request still has both: they belong to it.
        #expect(server.requests[2].header("authorization") == "Bearer sk-page-test-SECRET")
        #expect(server.requests[2].header("x-title") == "configured-HEADER")
        let sent = try lastUserText(server.requests[2])
        #expect(
            sent == "summarise\n\n\(page) (redirected to http://127.0.0.1:\(server.port)/notes)\n```\n"
                + "# Release notes\n\nVersion **2** is out.\n```")

        // Continued: the stored text goes again; the page is not fetched again.
        let again = try await chat.run(["--config", config, "--base-url", server.baseURL, "-c", "and?"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(server.requests.map(\.path) == ["/start", "/notes", "/v1/chat/completions", "/v1/chat/completions"])
        let body = try #require(try JSONSerialization.jsonObject(with: Data(server.requests[3].body)) as? [String: Any])
        let first = (body["messages"] as? [[String: Any]])?.first { $0["role"] as? String == "user" }
        #expect(first?["content"] as? String == sent)
    }

    @Test func fileInTheREPLFetchesAPageForTheNextMessage() async throws {
        let server = try site()
        defer { server.stop() }
        let chat = ChatBinary(environment: ["OPENAI_API_KEY": "sk-test"])
        let base = "http://127.0.0.1:\(server.port)"
        let result = try await chat.run(
            ["--base-url", server.baseURL, "-i"], input: "/file \(base)/gone\n/file \(base)/notes\nsummarise\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("chat: error: \(base)/gone: the server answered 404; nothing attached\n"))
        #expect(server.requests.map(\.path) == ["/gone", "/notes", "/v1/chat/completions"])
        #expect(
            try lastUserText(server.requests[2])
                == "summarise\n\n\(base)/notes\n```\n# Release notes\n\nVersion **2** is out.\n```")
    }

    @Test func verboseShowsThePagesRequestsWithNothingOfTheAPIs() async throws {
        let server = try site()
        defer { server.stop() }
        let chat = ChatBinary(environment: ["OPENAI_API_KEY": "sk-verbose-SECRET"])
        let base = "http://127.0.0.1:\(server.port)"
        let result = try await chat.run(["--base-url", server.baseURL, "-v", "-f", base + "/start", "hi"])
        #expect(result.status == 0, "\(result.stderr)")
        let stderr = result.stderr
        #expect(stderr.contains("> GET \(base)/start\n> Accept: "))
        #expect(stderr.contains("< HTTP 302 after "))
        #expect(stderr.contains("> GET \(base)/notes\n> Accept: "))
        #expect(stderr.contains("> Authorization: [redacted]"))
        #expect(!stderr.contains("SECRET"))
        // Each page request's header fields, as `-v` lists them: Accept alone.
        let lines = stderr.split(separator: "\n")
        let gets = lines.indices.filter { lines[$0].hasPrefix("> GET") }
        #expect(gets.count == 2)
        for index in gets {
            let fields = lines[(index + 1)...].prefix { $0.hasPrefix("> ") }
            #expect(fields.map { $0.prefix(9) } == ["> Accept:"], "\(fields)")
        }
    }

    @Test func aPageThatCannotBeFetchedIsOneLineAndNothingIsSent() async throws {
        let server = try site()
        defer { server.stop() }
        let chat = ChatBinary(environment: ["OPENAI_API_KEY": "sk-test"])
        let config = try chat.writeConfig(#"{"max_file_bytes": 2048}"#)
        let base = "http://127.0.0.1:\(server.port)"
        for (url, status, message) in [
            ("\(base)/gone", Int32(1), "\(base)/gone: the server answered 404"),
            (
                "\(base)/big", 1,
                "\(base)/big: the page is over the 2 KiB a fetched page may be (max_file_bytes in the config for text)"
            ),
            (
                "ftp://example.com/file", 2,
                "ftp://example.com/file is not a URL chat can fetch: only http:// and https:// pages can be attached"
            ),
        ] {
            let result = try await chat.run(["--config", config, "--base-url", server.baseURL, "-f", url, "hi"])
            #expect(result.status == status, "\(url): \(result.stderr)")
            #expect(result.stderr == "chat: error: \(message)\n")
            #expect(result.stdout == "")
        }
        let (refused, url) = try await RefusingPort.with { port in
            let url = "http://127.0.0.1:\(port)/x"
            return (try await chat.run(["--base-url", server.baseURL, "-f", url, "hi"]), url)
        }
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("chat: error: \(url): connection failed: "), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1)
        #expect(!server.requests.contains { $0.method == "POST" })
        // Nothing was stored either.
        #expect(try await chat.run(["--list", "--all"]).stdout == "")
    }
}
