import ChatTestSupport
import Foundation
import Testing

/// PDFs end to end (issue 38): known by their first bytes, sent whole to each provider in its
/// shape, as their text with `pdf: text` (`pdftotext`), refused over 32 MiB, kept by the history
/// as an image is (path and SHA-256) and read again for `-c`.
@Suite(.timeLimit(.minutes(1)))
struct PDFCommandTests {
    static let pdf = minimalPDF(pages: ["Quarterly report", "Second page"])

    @Test func aPDFGoesToChatCompletionsAsAFilePartNamedByItsBaseName() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.sse([ServerStep.chatChunk("read"), ServerStep.finishChunk()])
        }
        defer { server.stop() }
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        // Known by its first bytes, not its name; within max_file_bytes or not, it goes whole.
        let path = try chat.writeFile("docs/report.bin", Self.pdf)
        let config = try chat.writeConfig(#"{"max_file_bytes": 100}"#)
        let result = try await chat.run(["--config", config, "--base-url", server.baseURL, "-f", path, "summarise"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "read\n")
        let content = try SentDocument.firstUserContent(of: server, 0)
        #expect(
            try SentDocument.json(content)
                == SentDocument.json([
                    ["type": "text", "text": "summarise"],
                    SentDocument.chatCompletionsFile(Self.pdf, named: "report.bin"),
                ]))

        // `/file` in the REPL attaches it to the next message the same way.
        let repl = try await chat.run(
            ["--config", config, "--base-url", server.baseURL, "-i"], input: "/file \(path)\nsummarise\n")
        #expect(repl.status == 0, "\(repl.stderr)")
        #expect(
            try SentDocument.json(try SentDocument.firstUserContent(of: server, 1))
                == SentDocument.json(content))
    }

    @Test func aPDFGoesToAnthropicAsADocumentBlock() async throws {
        let server = try LoopbackServer { _, _ in AnthropicCLITests.stream("read") }
        defer { server.stop() }
        let (chat, options) = try AnthropicCLITests.chat(for: server)
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let path = try chat.writeFile("report.pdf", Self.pdf)
        let result = try await chat.run(options + ["-f", path, "summarise"])
        #expect(result.status == 0, "\(result.stderr)")
        let content = try SentDocument.firstUserContent(of: server, 0)
        #expect(
            try SentDocument.json(content)
                == SentDocument.json([
                    ["type": "text", "text": "summarise"],
                    SentDocument.anthropicDocument(Self.pdf),
                ]))
    }

    @Test func aPDFGoesToResponsesAsAnInputFile() async throws {
        let (server, chat, options) = try SentDocument.responsesServer()
        defer { server.stop() }
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let path = try chat.writeFile("report.pdf", Self.pdf)
        let result = try await chat.run(options + ["-f", path, "summarise"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "read\n")
        let content = try SentDocument.firstUserContent(of: server, 0)
        #expect(
            try SentDocument.json(content)
                == SentDocument.json([
                    ["type": "input_text", "text": "summarise"],
                    SentDocument.responsesFile(Self.pdf, named: "report.pdf"),
                ]))
    }

    @Test func aPDFOver32MiBIsRefusedBeforeAnythingIsSent() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.sse([ServerStep.chatChunk("read"), ServerStep.finishChunk()])
        }
        defer { server.stop() }
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let limit = 32 * 1_048_576
        let big = try SparseFile.write(chat.home + "/big.pdf", header: Self.pdf, size: limit + 1)
        let refused = try await chat.run(["--base-url", server.baseURL, "-f", big, "hi"])
        #expect(refused.status == 2)
        #expect(refused.stderr == "chat: error: \(big) is 32 MiB, over the 32 MiB a PDF may be\n")
        #expect(server.requests.isEmpty)
    }

    @Test func theHistoryKeepsThePDFsPathAndHashAndAContinuedConversationRereadsIt() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.sse([ServerStep.chatChunk("read"), ServerStep.finishChunk()])
        }
        defer { server.stop() }
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let path = try chat.writeFile("report.pdf", Self.pdf)
        let first = try await chat.run(["--base-url", server.baseURL, "-f", path, "summarise"])
        #expect(first.status == 0, "\(first.stderr)")
        let id = String(try await chat.run(["--list"]).stdout.prefix(8))

        let show = try await chat.run(["--show", id])
        let hash = try Self.sha256sum(path).prefix(12)
        #expect(
            show.stdout.contains(
                "summarise\n[PDF \(path), \(Self.pdf.count) bytes application/pdf, sha256 \(hash)…; the history keeps "
                    + "this, not the PDF]"),
            "\(show.stdout)")
        let database = try String(contentsOfFile: chat.home + "/data/chat/history.sqlite", encoding: .isoLatin1)
        #expect(!database.contains(Data(Self.pdf).base64EncodedString()))

        // -c reads it again from its file and sends it again.
        let again = try await chat.run(["--base-url", server.baseURL, "-c", "and the second page?"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr == "")
        let resent = try SentDocument.firstUserContent(of: server, 1)
        #expect(
            try SentDocument.json(resent.last ?? [:])
                == SentDocument.json(SentDocument.chatCompletionsFile(Self.pdf, named: "report.pdf")))

        // Changed since: a note in its place, said once.
        try Data(Self.pdf + [0x20]).write(to: URL(fileURLWithPath: path))
        let changed = try await chat.run(["--base-url", server.baseURL, "-c", "and now?"])
        #expect(changed.status == 0)
        #expect(
            changed.stderr
                == "chat: (\(path) is no longer available as attached; the requests carry a note in its place)\n")
        let noted = try SentDocument.firstUserContent(of: server, 2)
        #expect(noted.last?["text"] as? String == "[PDF \(path) is no longer available]")
    }

    @Test(.enabled(if: PDFCommandTests.hasPDFToText, "needs pdftotext (apt-get install poppler-utils)"))
    func withPDFTextTheLocalProfileSendsItsTextNamedWithItsPages() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.sse([ServerStep.chatChunk("read"), ServerStep.finishChunk()])
        }
        defer { server.stop() }
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let path = try chat.writeFile("report.pdf", Self.pdf)
        // The built-in local profile sets pdf: text.
        let result = try await chat.run(["--profile", "local", "--base-url", server.baseURL, "-f", path, "summarise"])
        #expect(result.status == 0, "\(result.stderr)")
        let content = try #require(
            (try SentDocument.body(server, 0)["messages"] as? [[String: Any]])?.last?["content"] as? String)
        #expect(
            content == "summarise\n\n\(path) (PDF, 2 pages, its text)\n```\nQuarterly report\n\nSecond page\n```",
            "\(content)")

        // Its text counts in max_file_bytes.
        let config = try chat.writeConfig(#"{"profiles": {"t": {"pdf": "text"}}, "max_file_bytes": 10}"#)
        let over = try await chat.run(
            ["--config", config, "--profile", "t", "--base-url", server.baseURL, "-f", path, "hi"])
        #expect(over.status == 2)
        #expect(over.stderr.contains("of text, over the 10 bytes a message may carry (max_file_bytes in the config)"))

        // A PDF pdftotext cannot read: one line, nothing sent.
        let broken = try chat.writeFile("broken.pdf", Array("%PDF-1.4\ngarbage\n".utf8))
        let unread = try await chat.run(["--profile", "local", "--base-url", server.baseURL, "-f", broken, "hi"])
        #expect(unread.status == 2)
        #expect(
            unread.stderr == "chat: error: cannot read the text of the PDF \(broken): pdftotext ended with status 1\n")
        #expect(server.requests.count == 1)
    }

    @Test func withPDFTextAndNoPDFToTextOneLineSaysHowToGetItAndNothingIsSent() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.sse([ServerStep.chatChunk("read"), ServerStep.finishChunk()])
        }
        defer { server.stop() }
        let chat = ChatBinary(environment: ["PATH": "/nonexistent"])
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let path = try chat.writeFile("report.pdf", Self.pdf)
        let result = try await chat.run(["--profile", "local", "--base-url", server.baseURL, "-f", path, "hi"])
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "chat: error: \(path) is a PDF to send as text (pdf: text), and pdftotext is not on the PATH: "
                + "install poppler-utils (apt-get install poppler-utils, or brew install poppler), or set pdf to "
                + "native to send the file\n")
        #expect(result.stdout == "")
        #expect(server.requests.isEmpty)
    }

    /// The SHA-256 of the file at `path` as coreutils' `sha256sum` gives it (not chat's own).
    static func sha256sum(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(String(decoding: output, as: UTF8.self).prefix(64))
    }

    static var hasPDFToText: Bool {
        ["/usr/bin/pdftotext", "/bin/pdftotext"].contains { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
