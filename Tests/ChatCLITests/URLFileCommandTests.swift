import ChatTestSupport
import Foundation
import Testing

/// PDFs and images fetched from URLs, end to end (issue 38): a loopback web site, apart from the
/// API's server so it can be stopped, serves a small real PDF and a PNG. A fetched PDF reaches
/// each provider as a PDF file does, named by the URL's last path part; the history keeps the
/// bytes of what was fetched, so `-c` sends it again with the site gone; a PDF over 32 MiB is
/// one line; a request its files make larger than the provider's documented limit is refused
/// before it is sent.
@Suite(.timeLimit(.minutes(2)))
struct URLFileCommandTests {
    static let pdf = minimalPDF(pages: ["Fetched report", "Second page"])
    static let dataURL = SentDocument.dataURL(pdf)
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 1, 2, 3]
    /// A PDF one byte over 32 MiB, as body steps: the PDF's start, then spaces in pieces of 1 MiB
    /// (one array, shared), so that no 32 MiB array is made: building one in a debug build kept
    /// one of the test pool's two threads busy for seconds, and tests waiting on it timed out.
    static let bigSize = 32 * 1_048_576 + 1
    static let mebibyte = [UInt8](repeating: 0x20, count: 1_048_576)
    static let bigBody: [ServerStep] =
        [.body(pdf)] + Array(repeating: .body(mebibyte), count: 31)
        + [.body([UInt8](repeating: 0x20, count: bigSize - pdf.count - 31 * 1_048_576))]

    /// The web site: the PDF as `application/pdf`, as `application/octet-stream` (known by its
    /// bytes) and at the site's root; the PNG; a PDF over 32 MiB, with and without its length.
    private func site() throws -> LoopbackServer {
        try LoopbackServer { request, _ in
            switch request.path {
            case "/files/report.pdf?v=2": return Self.page(Self.pdf, type: "application/pdf")
            case "/download": return Self.page(Self.pdf, type: "application/octet-stream")
            case "/": return Self.page(Self.pdf, type: "application/pdf")
            case "/cat.png": return Self.page(Self.png, type: "image/png")
            case "/big.pdf":
                return [
                    .head(
                        status: 200,
                        headers: [("Content-Type", "application/pdf"), ("Content-Length", "\(Self.bigSize)")],
                        chunked: false)
                ] + Self.bigBody + [.end]
            case "/big-untold.pdf":
                return [.head(status: 200, headers: [("Content-Type", "application/pdf")], chunked: true)]
                    + Self.bigBody + [.end]
            default: return ServerStep.json(status: 404, #"{"error": "none"}"#)
            }
        }
    }

    private static func page(_ bytes: [UInt8], type: String) -> [ServerStep] {
        [
            .head(
                status: 200, headers: [("Content-Type", type), ("Content-Length", "\(bytes.count)")], chunked: false),
            .body(bytes), .end,
        ]
    }

    private func api() throws -> LoopbackServer {
        try LoopbackServer { _, _ in ServerStep.sse([ServerStep.chatChunk("read"), ServerStep.finishChunk()]) }
    }

    @Test func aFetchedPDFGoesToChatCompletionsAsAFilePartNamedByTheURLsLastPathPart() async throws {
        let (web, server) = (try site(), try api())
        defer { web.stop() }
        defer { server.stop() }
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let base = "http://127.0.0.1:\(web.port)"
        // Within max_file_bytes or not, it goes whole: that limit is for text.
        let config = try chat.writeConfig(#"{"max_file_bytes": 100}"#)
        let result = try await chat.run(
            ["--config", config, "--base-url", server.baseURL, "-f", "\(base)/files/report.pdf?v=2", "summarise"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "read\n")
        #expect(
            try SentDocument.json(try SentDocument.firstUserContent(of: server, 0))
                == SentDocument.json([
                    ["type": "text", "text": "summarise"],
                    SentDocument.chatCompletionsFile(Self.pdf, named: "report.pdf"),
                ]))

        // Served as octet-stream, it is known by its bytes; a URL with no path part is
        // `document.pdf`. `/file URL` in the REPL attaches it the same way.
        let repl = try await chat.run(
            ["--config", config, "--base-url", server.baseURL, "-i"],
            input: "/file \(base)/download\n/file \(base)/\nsummarise\n")
        #expect(repl.status == 0, "\(repl.stderr)")
        let files = try SentDocument.firstUserContent(of: server, 1).compactMap {
            $0["file"] as? [String: Any]
        }
        #expect(files.map { $0["filename"] as? String } == ["download", "document.pdf"])
        #expect(files.map { $0["file_data"] as? String } == [Self.dataURL, Self.dataURL])
    }

    @Test func aFetchedPDFGoesToAnthropicAsADocumentBlock() async throws {
        let web = try site()
        defer { web.stop() }
        let server = try LoopbackServer { _, _ in AnthropicCLITests.stream("read") }
        defer { server.stop() }
        let (chat, options) = try AnthropicCLITests.chat(for: server)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(
            options + ["-f", "http://127.0.0.1:\(web.port)/files/report.pdf?v=2", "summarise"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try SentDocument.json(try SentDocument.firstUserContent(of: server, 0))
                == SentDocument.json([
                    ["type": "text", "text": "summarise"],
                    SentDocument.anthropicDocument(Self.pdf),
                ]))
    }

    @Test func aFetchedPDFGoesToResponsesAsAnInputFile() async throws {
        let web = try site()
        defer { web.stop() }
        let (server, chat, options) = try SentDocument.responsesServer()
        defer { server.stop() }
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(
            options + ["-f", "http://127.0.0.1:\(web.port)/files/report.pdf?v=2", "sum"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try SentDocument.json(try SentDocument.firstUserContent(of: server, 0))
                == SentDocument.json([
                    ["type": "input_text", "text": "sum"],
                    SentDocument.responsesFile(Self.pdf, named: "report.pdf"),
                ]))
    }

    @Test(.enabled(if: PDFCommandTests.hasPDFToText, "needs pdftotext (apt-get install poppler-utils)"))
    func withPDFTextAFetchedPDFGoesAsItsTextLabelledWithTheURLAndPages() async throws {
        let (web, server) = (try site(), try api())
        defer { web.stop() }
        defer { server.stop() }
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let url = "http://127.0.0.1:\(web.port)/files/report.pdf?v=2"
        let result = try await chat.run(["--profile", "local", "--base-url", server.baseURL, "-f", url, "summarise"])
        #expect(result.status == 0, "\(result.stderr)")
        let content = try #require(
            (try SentDocument.body(server, 0)["messages"] as? [[String: Any]])?.last?["content"] as? String)
        #expect(content == "summarise\n\n\(url) (PDF, 2 pages, its text)\n```\nFetched report\n\nSecond page\n```")
    }

    @Test func theHistoryKeepsAFetchedPDFAndImageWholeAndAContinuedConversationSendsThemWithoutFetching()
        async throws
    {
        let (web, server) = (try site(), try api())
        defer { server.stop() }
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let base = "http://127.0.0.1:\(web.port)"
        let (pdfURL, pngURL) = ("\(base)/files/report.pdf?v=2", "\(base)/cat.png")
        let first = try await chat.run(["--base-url", server.baseURL, "-f", pdfURL, "-f", pngURL, "summarise"])
        #expect(first.status == 0, "\(first.stderr)")
        let sent = try SentDocument.firstUserContent(of: server, 0)
        #expect(web.requests.count == 2)
        // The site is gone: nothing can be fetched again.
        web.stop()

        let again = try await chat.run(["--base-url", server.baseURL, "-c", "and the second page?"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr == "")
        #expect(
            try SentDocument.json(try SentDocument.firstUserContent(of: server, 1))
                == SentDocument.json(sent))
        let image = try #require(sent.last?["image_url"] as? [String: Any])
        #expect(image["url"] as? String == "data:image/png;base64," + Data(Self.png).base64EncodedString())

        // `--show` names them, kept in the history.
        let id = String(try await chat.run(["--list"]).stdout.prefix(8))
        let show = try await chat.run(["--show", id])
        let pdfHash = Self.sha256(Self.pdf).prefix(12)
        #expect(
            show.stdout.contains(
                "[PDF \(pdfURL), \(Self.pdf.count) bytes application/pdf, sha256 \(pdfHash)…; kept in the history]"),
            "\(show.stdout)")
        #expect(show.stdout.contains("[image \(pngURL), 15 bytes image/png, sha256 "), "\(show.stdout)")

        // The export carries the bytes (base64), so a `/load`ed copy sends them too.
        let export = try await chat.run(["--export", id, "--format", "json"])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout.contains(Data(Self.pdf).base64EncodedString()))
        let file = chat.home + "/saved.json"
        try Data(export.stdout.utf8).write(to: URL(fileURLWithPath: file))
        let loaded = try await chat.run(
            ["--no-history", "--base-url", server.baseURL, "-i"], input: "/load \(file)\nonce more\n")
        #expect(loaded.status == 0, "\(loaded.stderr)")
        #expect(
            try SentDocument.json(try SentDocument.firstUserContent(of: server, 2))
                == SentDocument.json(sent))
    }

    @Test func aFetchedPDFOver32MiBIsOneLineNamingItAndNothingIsSent() async throws {
        let (web, server) = (try site(), try api())
        defer { web.stop() }
        defer { server.stop() }
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        for path in ["/big.pdf", "/big-untold.pdf"] {
            let url = "http://127.0.0.1:\(web.port)\(path)"
            let refused = try await chat.run(["--base-url", server.baseURL, "-f", url, "hi"], timeout: 60)
            #expect(refused.status == 1)
            #expect(refused.stderr == "chat: error: \(url): the PDF is over the 32 MiB a PDF may be\n")
        }
        #expect(server.requests.isEmpty)
    }

    @Test func aRequestItsFilesMakeLargerThanTheProvidersLimitIsRefusedBeforeItIsSent() async throws {
        let server = try api()
        defer { server.stop() }
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        // 25 MB: within chat's 32 MiB for a PDF, but 33.3 MB once base64-encoded, over the 32 MB
        // OpenAI and Anthropic take in one request.
        let path = chat.home + "/large.pdf"
        try SparseFile.write(path, header: Self.pdf, size: 25_000_000)
        let refused = try await chat.run(["--base-url", server.baseURL, "-f", path, "hi"], timeout: 60)
        #expect(refused.status == 2)
        #expect(
            refused.stderr.hasPrefix(
                "chat: error: \(path) is 33.3 MB once base64-encoded, and the request carrying it 33.3 MB, over the "
                    + "32 MB the openai provider takes in one request: nothing was sent"),
            "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1)
        #expect(server.requests.isEmpty)

        // In the REPL: the same line, and no offer to /retry what would be refused again.
        let repl = try await chat.run(["--base-url", server.baseURL, "-i"], input: "/file \(path)\nhi\n", timeout: 60)
        #expect(repl.stderr.contains("takes in one request: nothing was sent"), "\(repl.stderr)")
        #expect(repl.stderr.contains("(/retry would be refused again: the files are too large for one request)"))
        #expect(!repl.stderr.contains("/retry sends it again"))
        #expect(server.requests.isEmpty)
    }

    private static func sha256(_ bytes: [UInt8]) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        let (input, output) = (Pipe(), Pipe())
        process.standardInput = input
        process.standardOutput = output
        try? process.run()
        input.fileHandleForWriting.write(Data(bytes))
        try? input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return String(text.prefix(64))
    }
}
