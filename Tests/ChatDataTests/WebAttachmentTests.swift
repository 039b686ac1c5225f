import ChatDomain
import ChatTestSupport
import Foundation
import Testing

@testable import ChatAttachments
@testable import ChatHTTP
@testable import ChatPresentation

private let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]

/// A page as a server sends it: the head with its type and exact length, the body, the end.
private func page(_ body: String, type: String, status: Int = 200, headers: [(String, String)] = []) -> [ServerStep] {
    let bytes = Array(body.utf8)
    return [
        .head(
            status: status, headers: [("Content-Type", type), ("Content-Length", "\(bytes.count)")] + headers,
            chunked: false),
        .body(bytes), .end,
    ]
}

private func redirect(to location: String, status: Int = 302) -> [ServerStep] {
    [.head(status: status, headers: [("Location", location), ("Content-Length", "0")], chunked: false), .end]
}

/// Pages given by their URL, fetched from a loopback web server through libcurl: HTML made
/// readable, redirects followed (up to five), text, JSON and images as they are, and every
/// failure a fact that names the URL.
@Suite(.timeLimit(.minutes(1)))
struct WebAttachmentTests {
    private let client = CurlHTTPClient()

    private func reader(limit: Int = 1_048_576, takesImages: Bool = true) -> WebAttachmentReader {
        WebAttachmentReader(
            files: FileAttachmentReader(limit: limit, home: nil),
            network: WebNetwork(http: client, connectTimeout: 5, idleTimeout: 5), limit: limit, takesImages: takesImages
        )
    }

    private func server(_ routes: @escaping @Sendable (String) -> [ServerStep]) throws -> LoopbackServer {
        try LoopbackServer { request, _ in routes(request.path) }
    }

    private func origin(_ server: LoopbackServer) -> String { "http://127.0.0.1:\(server.port)" }

    static let article = """
        <!DOCTYPE html>
        <html><head><title>Ignored title</title><style>body { color: red }</style>
        <script>var secret = "script text";</script></head>
        <body>
        <nav><a href="/home">Home</a> | <a href="/about">About</a></nav>
        <h1>The   Report</h1>
        <p>First <b>bold</b> and <em>slanted</em> words,
           with a <a href="/docs/guide?x=1">guide</a> and <code>code()</code>.</p>
        <div hidden>hidden by attribute</div>
        <p aria-hidden="true">hidden from readers</p>
        <span style="color: blue; display : none">hidden by style</span>
        <noscript>turn on JavaScript</noscript>
        <template><p>template text</p></template>
        <h2>List</h2>
        <ul><li>one</li><li>two<ol><li>inner</li></ol></li></ul>
        <table><tr><th>Name</th><th>Size</th></tr><tr><td>a|b</td><td>1 &amp; 2</td></tr></table>
        <pre>let x = 1
        let y = 2</pre>
        <p>caf&#233; &copy; &#8364; &#x41;</p>
        </body></html>
        """

    @Test func aRedirectFromHTTPSToPlainHTTPIsNotFollowed() throws {
        let secure = try #require(WebAddress("https://example.org/a"))
        #expect(WebPageFetcher.downgrades(from: secure, to: try #require(WebAddress("http://example.org/b"))))
        #expect(WebPageFetcher.downgrades(from: secure, to: try #require(WebAddress("HTTP://example.org/b"))))
        #expect(!WebPageFetcher.downgrades(from: secure, to: try #require(WebAddress("https://example.net/b"))))
        let plain = try #require(WebAddress("http://example.org/a"))
        #expect(!WebPageFetcher.downgrades(from: plain, to: try #require(WebAddress("http://example.org/b"))))
        #expect(
            ErrorWording.line(
                for: AttachmentError.web(.insecureRedirect(url: "https://a.test/x", to: "http://a.test/y")))
                == "https://a.test/x: a redirect from https to plain http (http://a.test/y); not followed")
    }

    @Test func anHTMLPageBecomesMarkdownWithoutScriptsOrHiddenText() async throws {
        let server = try server { path in path == "/article" ? page(Self.article, type: "text/html; charset=utf-8") : []
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let url = origin(server) + "/article"
        let read = try await reader().read([url], adding: Attachments()).get()
        let text = try #require(read.texts.first)
        #expect(text.path == url)
        #expect(
            text.text == """
                # The Report

                First **bold** and *slanted* words, with a [guide](\(origin(server))/docs/guide?x=1) and `code()`.

                ## List

                - one
                - two
                   1. inner

                | Name | Size |
                | --- | --- |
                | a\\|b | 1 & 2 |

                ```
                let x = 1
                let y = 2
                ```

                café © € A
                """)
        for dropped in ["script text", "hidden", "JavaScript", "template text", "Home", "Ignored title", "color"] {
            #expect(!text.text.contains(dropped), "\(dropped)")
        }
        // The message names the URL the text came from (the fence outlasts the page's own).
        #expect(read.message(with: "summarise").content.hasPrefix("summarise\n\n\(url)\n````\n# The Report"))
    }

    @Test func redirectsAreFollowedUpToFiveAndTheMessageNamesWhereTheyLed() async throws {
        let server = try server { path in
            if path.hasPrefix("/hop/") {
                let n = Int(path.dropFirst(5)) ?? 0
                return n == 0 ? page("arrived", type: "text/plain") : redirect(to: "/hop/\(n - 1)")
            }
            return page("not here", type: "text/plain", status: 404)
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let five = origin(server) + "/hop/5"
        let read = try await reader().read([five], adding: Attachments()).get()
        #expect(
            read.texts == [TextAttachment(path: "\(five) (redirected to \(origin(server))/hop/0)", text: "arrived")])
        #expect(server.requests.map(\.path) == (0...5).reversed().map { "/hop/\($0)" })

        let six = origin(server) + "/hop/6"
        #expect(
            await reader().read([six], adding: Attachments()) == .failure(.web(.tooManyRedirects(url: six, limit: 5))))
        #expect(server.requests.count == 6 + 6)
    }

    @Test func aStatusOtherThanSuccessIsAFailureNamingTheURL() async throws {
        let server = try server { _ in page("<h1>Not Found</h1>", type: "text/html", status: 404) }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let url = origin(server) + "/missing"
        #expect(await reader().read([url], adding: Attachments()) == .failure(.web(.status(url: url, status: 404))))
    }

    @Test func aBodyOverTheLimitIsRefusedWithOrWithoutItsLength() async throws {
        let big = String(repeating: "a", count: 3000)
        let server = try server { path in
            if path == "/told" { return page(big, type: "text/plain") }
            // No length: the reader stops once the body passes the limit.
            return [.head(status: 200, headers: [("Content-Type", "text/plain")], chunked: true), .text(big), .end]
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        for path in ["/told", "/untold"] {
            let url = origin(server) + path
            #expect(
                await reader(limit: 2048).read([url], adding: Attachments())
                    == .failure(.web(.tooLarge(url: url, limit: 2048))))
        }
        // Within the limit, the same body goes.
        #expect(
            try await reader(limit: 4096).read([origin(server) + "/told"], adding: Attachments()).get().textByteCount
                == 3000)
    }

    @Test func textJSONAndImagesAreAttachedAsTheyAre() async throws {
        let server = try server { path in
            switch path {
            case "/notes.txt": return page("plain <b>text</b>\r\nline two", type: "text/plain")
            case "/data": return page(#"{"a": [1, 2]}"#, type: "application/json")
            case "/cat":
                return [.head(status: 200, headers: [("Content-Type", "image/png")], chunked: false), .body(png), .end]
            case "/latin":
                return [
                    .head(status: 200, headers: [("Content-Type", "text/plain; charset=iso-8859-1")], chunked: false),
                    .body([0x63, 0x61, 0x66, 0xE9]), .end,
                ]
            case "/escape": return page("red \u{1B}[31mtext\u{7}", type: "text/plain")
            default: return []
            }
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let base = origin(server)
        let read = try await reader().read(
            ["\(base)/notes.txt", "\(base)/data", "\(base)/cat", "\(base)/latin", "\(base)/escape"],
            adding: Attachments()
        ).get()
        #expect(read.texts.map(\.text) == ["plain <b>text</b>\nline two", #"{"a": [1, 2]}"#, "café", "red [31mtext"])
        #expect(read.images.map(\.mimeType) == ["image/png"])
        #expect(read.images.first?.data == png)
        #expect(read.images.first?.path == "\(base)/cat")

        #expect(
            await reader(takesImages: false).read(["\(base)/cat"], adding: Attachments())
                == .failure(.imageNotTaken(path: "\(base)/cat")))
    }

    @Test func typesChatDoesNotAttachAreRefusedBeforeTheirBodyIsRead() async throws {
        let server = try server { _ in page("\u{0}\u{1}", type: "video/mp4") }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let base = origin(server)
        #expect(
            await reader().read(["\(base)/clip"], adding: Attachments())
                == .failure(.web(.unsupportedType(url: "\(base)/clip", mediaType: "video/mp4"))))
        #expect(server.requests.count == 1)
    }

    @Test func aPDFIsAttachedWholeWhateverTheTextLimitAndOctetStreamIsKnownByItsBytes() async throws {
        let pdf = minimalPDF(pages: ["Fetched"])
        let server = try server { path in
            switch path {
            case "/report.pdf":
                return [
                    .head(status: 200, headers: [("Content-Type", "application/pdf")], chunked: false), .body(pdf),
                    .end,
                ]
            case "/fake.pdf": return page("not a PDF", type: "application/pdf")
            case "/bin":
                return [
                    .head(status: 200, headers: [("Content-Length", "\(pdf.count)")], chunked: false), .body(pdf), .end,
                ]
            default: return page("\u{0}\u{1}", type: "application/octet-stream")
            }
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let base = origin(server)
        // A text limit far below the PDF's size: a PDF is held to the PDF limit instead.
        let read = try await reader(limit: 16).read(["\(base)/report.pdf", "\(base)/bin"], adding: Attachments()).get()
        #expect(read.texts.isEmpty)
        #expect(read.images.map(\.mimeType) == ["application/pdf", "application/pdf"])
        #expect(read.images.map(\.data) == [pdf, pdf])
        #expect(read.images.allSatisfy { $0.fetched })
        #expect(read.images.map(\.fileName) == ["report.pdf", "bin"])
        #expect(
            await reader().read(["\(base)/fake.pdf"], adding: Attachments())
                == .failure(.web(.notAPDF(url: "\(base)/fake.pdf"))))
        #expect(
            await reader().read(["\(base)/blob"], adding: Attachments())
                == .failure(.web(.unsupportedType(url: "\(base)/blob", mediaType: "application/octet-stream"))))
    }

    @Test func aRefusedConnectionAndAnAddressThatIsNoURLAreFailuresToo() async throws {
        let refused = try await RefusingPort.with { port in
            await reader().read(["http://127.0.0.1:\(port)/page"], adding: Attachments()).map { _ in port }
        }
        guard case .failure(.web(.transfer(let named, .connection(.refused, _)))) = refused else {
            Issue.record("a refused connection: \(refused)")
            return
        }
        #expect(named.hasPrefix("http://127.0.0.1:") && named.hasSuffix("/page"))
        #expect(
            await reader().read(["ftp://example.com/a"], adding: Attachments())
                == .failure(.web(.notAURL("ftp://example.com/a"))))
        #expect(await reader().read(["https://"], adding: Attachments()) == .failure(.web(.notAURL("https://"))))
    }

    @Test func filesAndPagesMixInTheOrderGivenAndShareTheLimit() async throws {
        let server = try server { _ in page(String(repeating: "p", count: 600), type: "text/plain") }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let file = NSTemporaryDirectory() + "chat-web-\(UUID().uuidString).txt"
        try Data(repeating: 0x66, count: 600).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let url = origin(server) + "/p"
        let both = try await reader().read([file, url], adding: Attachments()).get()
        #expect(both.texts.map(\.path) == [file, url])
        #expect(
            await reader(limit: 1000).read([file, url], adding: Attachments())
                == .failure(.tooMuchText(bytes: 1200, limit: 1000)))
    }

    @Test func untidyHTMLIsReadAsBrowsersReadIt() throws {
        let base = try #require(WebAddress("https://site.example/dir/page"))
        let html = """
            <!-- a comment with <p>markup</p> --><P CLASS='x'>Upper <B>case</B> tags, 1 < 2 &amp;&amp; 3 > 2
            <p>unclosed paragraph<p>next one
            <DIV hidden><div>nested</div> still hidden</DIV><div>shown</div>
            <a href="javascript:void(0)">script link</a> <a href="#top">here</a> <a href="x"> </a>
            <a href='../up?q=1'>up</a> <a href=mailto:me@site.example>mail</a>
            <script>if (a < b) { document.write("</p>") }</script><h3>End</h3>
            """
        #expect(
            HTMLText.markdown(html, base: base) == """
                Upper **case** tags, 1 < 2 && 3 > 2

                unclosed paragraph

                next one
                shown
                script link here [up](https://site.example/up?q=1) [mail](mailto:me@site.example)

                ### End
                """)
    }

    @Test func relativeLocationsResolveAsBrowsersResolveThem() throws {
        let base = try #require(WebAddress("http://h:8/a/b/c?q=1#f"))
        #expect(base.text == "http://h:8/a/b/c?q=1")
        #expect(base.resolving("d")?.text == "http://h:8/a/b/d")
        #expect(base.resolving("../d?x")?.text == "http://h:8/a/d?x")
        #expect(base.resolving("/e/./f/../g")?.text == "http://h:8/e/g")
        #expect(base.resolving("//other/x")?.text == "http://other/x")
        #expect(base.resolving("?z")?.text == "http://h:8/a/b/c?z")
        #expect(base.resolving("https://x.example/y")?.text == "https://x.example/y")
        #expect(base.resolving("mailto:a@b") == nil)
        #expect(WebAddress("https://user:pw@h/p")?.shown == "https://h/p")
        #expect(WebAddress.isURL("https://h") && WebAddress.isURL("ftp://h") && !WebAddress.isURL("notes.txt"))
        #expect(!WebAddress.isURL("src/*.swift") && !WebAddress.isURL("://x"))
    }
}
