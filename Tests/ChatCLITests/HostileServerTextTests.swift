import ChatTestSupport
import Foundation
import Testing

/// What a server says is data, never terminal commands: the built binary against servers whose
/// words hold line breaks, escape sequences (clear screen, window title, colours), BEL and C1
/// controls, in every place chat prints them. Each failure stays one `chat: error:` line (two
/// lines at most), holds no control character, and keeps the readable words.
@Suite struct HostileServerTextTests {
    /// Clear screen, set the window title, a C1 CSI colour, a reset, BEL, CR, tabs, line breaks.
    static let hostile =
        "first line\nsecond\tline\r\n\u{1B}[2J\u{1B}]0;pwned title\u{07}\u{9B}31mred\u{1B}[0m\u{07} and\u{0B}\u{85}end"
    /// What `hostile` reads as once made safe.
    static let shown = "first line second line red and end"

    private static let streamHead = ServerStep.head(
        status: 200, headers: [("Content-Type", "text/event-stream")], chunked: true)

    private static func event(_ json: String) -> ServerStep { .text("data: \(json)\n\n") }

    /// `text` as a JSON string literal, escapes and all (`\u001b`, `\n`, `\u009b`).
    static func jsonString(_ text: String) -> String {
        let data = try? JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed])
        let array = String(decoding: data ?? Data(), as: UTF8.self)
        return String(array.dropFirst().dropLast())
    }

    private func makeChat() -> ChatBinary {
        ChatBinary(environment: ["OPENAI_API_KEY": "sk-hostile-SECRET-0123456789"])
    }

    /// No control character but the line ends, nothing of the escape sequences' parameters.
    private func expectClean(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let bad = text.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
        #expect(
            bad.isEmpty, "control characters \(bad.map { String($0.value, radix: 16) }) in: \(text)",
            sourceLocation: sourceLocation)
        #expect(
            !text.contains("[2J") && !text.contains("31m") && !text.contains("pwned"), "in: \(text)",
            sourceLocation: sourceLocation)
        #expect(!text.contains("SECRET"), sourceLocation: sourceLocation)
    }

    /// One failure: status 1, one `chat: error:` line, two lines at most, clean, saying `saying`.
    private func expectOneCleanLine(
        _ result: ChatBinary.Result, stdout: String = "", saying: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == 1, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout == stdout, sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect((1...2).contains(lines.count), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(lines.filter { $0.hasPrefix("chat: error: ") }.count == 1, sourceLocation: sourceLocation)
        for part in saying {
            #expect(
                result.stderr.contains(part), "missing \"\(part)\" in: \(result.stderr)",
                sourceLocation: sourceLocation)
        }
        expectClean(result.stderr, sourceLocation: sourceLocation)
    }

    @Test func anErrorMessageIsOneCleanLine() async throws {
        let body = #"{"error":{"message":\#(Self.jsonString(Self.hostile)),"type":"invalid_request_error"}}"#
        let server = try LoopbackServer { _, _ in ServerStep.json(status: 400, body) }
        defer { server.stop() }
        let result = try await makeChat().runOffThePool(["--base-url", server.baseURL, "--no-stream", "hi"])
        expectOneCleanLine(result, saying: ["400 bad request: \(Self.shown)"])
    }

    @Test(arguments: [401, 403, 404, 429, 503])
    func everyStatusShowsTheMessageCleanly(status: Int) async throws {
        let body = #"{"error":{"message":\#(Self.jsonString(Self.hostile))}}"#
        let server = try LoopbackServer { _, _ in ServerStep.json(status: status, body) }
        defer { server.stop() }
        let result = try await makeChat().runOffThePool(["--base-url", server.baseURL, "--retries", "0", "hi"])
        expectOneCleanLine(result, saying: ["\(status) ", Self.shown])
    }

    @Test func aPlainTextBodyWithRawEscapesIsOneCleanLine() async throws {
        let body = "oops\u{1B}[2J\u{1B}]0;pwned\u{07} went \u{9B}31mwrong\r\nat line two\n"
        let server = try LoopbackServer { _, _ in
            ServerStep.json(status: 500, body, headers: [("Content-Type", "text/plain")])
        }
        defer { server.stop() }
        let result = try await makeChat().runOffThePool(["--base-url", server.baseURL, "--retries", "0", "hi"])
        expectOneCleanLine(result, saying: ["500 server error: oops went wrong"])
    }

    @Test func anHTMLPageWithEscapesIsNamedNotShown() async throws {
        let page = "<html><title>\u{1B}]0;pwned\u{07}Bad</title>\n<body>\u{1B}[2Jgateway\nfailed</body></html>"
        let server = try LoopbackServer { _, _ in
            ServerStep.json(status: 502, page, headers: [("Content-Type", "text/html")])
        }
        defer { server.stop() }
        let result = try await makeChat().runOffThePool(["--base-url", server.baseURL, "--retries", "0", "hi"])
        expectOneCleanLine(result, saying: ["502 server error: Bad Gateway", "HTML page"])
        #expect(!result.stderr.contains("<"))
    }

    @Test func anErrorObjectInsideTheStreamIsOneCleanLine() async throws {
        let server = try LoopbackServer { _, _ in
            [
                Self.streamHead, Self.event(ServerStep.chatChunk("Hello")),
                Self.event(#"{"error":{"message":\#(Self.jsonString(Self.hostile)),"type":"server_error"}}"#), .end,
            ]
        }
        defer { server.stop() }
        let result = try await makeChat().runOffThePool(["--base-url", server.baseURL, "hi"])
        expectOneCleanLine(result, stdout: "Hello\n", saying: ["the server reported an error: \(Self.shown)"])
    }

    @Test func anErrorEventWithRawEscapesIsOneCleanLine() async throws {
        let server = try LoopbackServer { _, _ in
            [
                Self.streamHead, Self.event(ServerStep.chatChunk("Hello")),
                .text("event: error\ndata: overloaded\u{1B}[2J\u{1B}]0;pwned\u{07}\ndata: \u{9B}31mtry later\n\n"),
                .end,
            ]
        }
        defer { server.stop() }
        let result = try await makeChat().runOffThePool(["--base-url", server.baseURL, "hi"])
        expectOneCleanLine(result, stdout: "Hello\n", saying: ["the server reported an error: overloaded try later"])
    }

    @Test func aLegacyErrorFieldWithRawEscapesIsOneCleanLine() async throws {
        let server = try LoopbackServer { _, _ in
            [Self.streamHead, .text("error: slot\u{1B}[2J unavailable\u{07}\u{1B}]0;pwned\u{1B}\\ now\n\n"), .end]
        }
        defer { server.stop() }
        let result = try await makeChat().runOffThePool(["--base-url", server.baseURL, "hi"])
        expectOneCleanLine(result, saying: ["the server reported an error: slot unavailable now"])
    }

    @Test func aMalformedChunkIsQuotedCleanly() async throws {
        let server = try LoopbackServer { _, _ in
            [
                Self.streamHead, Self.event(ServerStep.chatChunk("Hello")),
                Self.event("{\"choices\":[\u{1B}[2J\u{1B}]0;pwned\u{07}\u{9B}31m oops"), .end,
            ]
        }
        defer { server.stop() }
        let result = try await makeChat().runOffThePool(["--base-url", server.baseURL, "hi"])
        expectOneCleanLine(result, stdout: "Hello\n", saying: ["invalid JSON in the stream", "oops"])
    }

    @Test func aVeryLongMessageIsCutWithAnEllipsis() async throws {
        let long = String(repeating: "overly long words ", count: 400)
        let body = #"{"error":{"message":\#(Self.jsonString(long))}}"#
        let server = try LoopbackServer { _, _ in ServerStep.json(status: 400, body) }
        defer { server.stop() }
        let result = try await makeChat().runOffThePool(["--base-url", server.baseURL, "--no-stream", "hi"])
        expectOneCleanLine(result, saying: ["400 bad request: overly long words", "…"])
        #expect(result.stderr.count < 400, "\(result.stderr.count) characters")
    }

    @Test func aRedirectsLocationIsShownCleanly() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.json(
                status: 302, "", headers: [("Location", "http://127.0.0.1:9/\u{1B}]0;pwned\u{07}v1\u{1B}[2J")])
        }
        defer { server.stop() }
        let result = try await makeChat().runOffThePool(["--base-url", server.baseURL, "hi"])
        expectOneCleanLine(result, saying: ["redirected to http://127.0.0.1:9/v1"])
    }

    @Test func verboseHeaderValuesAreShownCleanly() async throws {
        let server = try LoopbackServer { _, _ in
            [
                .head(
                    status: 200,
                    headers: [
                        ("Content-Type", "text/event-stream"),
                        ("X-Evil", "\u{1B}]0;pwned\u{07}value\u{1B}[2J\u{9B}31m"),
                        ("X-Bell", "ding\u{07}\u{07}dong"),
                    ], chunked: true),
                Self.event(ServerStep.chatChunk("fine")), Self.event(ServerStep.finishChunk()), Self.event("[DONE]"),
                .end,
            ]
        }
        defer { server.stop() }
        let result = try await makeChat().runOffThePool(["--base-url", server.baseURL, "--verbose", "hi"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout == "fine\n")
        #expect(result.stderr.contains("< x-evil: value"))
        #expect(result.stderr.contains("< x-bell: dingdong"))
        expectClean(result.stderr)
    }

    @Test func aFailureInTheREPLIsTwoCleanLines() async throws {
        let body = #"{"error":{"message":\#(Self.jsonString(Self.hostile))}}"#
        let server = try LoopbackServer { _, _ in ServerStep.json(status: 400, body) }
        defer { server.stop() }
        let result = try await makeChat().run(["-i", "--base-url", server.baseURL], input: "hello\n")
        #expect(result.status == 0)
        #expect(result.stdout == "")
        #expect(
            result.stderr == "chat: error: 400 bad request: \(Self.shown)\n(/retry sends it again)\n",
            "stderr: \(result.stderr)")
        expectClean(result.stderr)
    }

    @Test func modelNamesInTheREPLAreShownCleanly() async throws {
        let models =
            #"{"object":"list","data":[{"id":"good-model"},{"id":\#(Self.jsonString("evil\u{1B}[2J\nmodel\u{07}"))}]}"#
        let server = try LoopbackServer { _, _ in ServerStep.json(status: 200, models) }
        defer { server.stop() }
        let result = try await makeChat().run(["-i", "--base-url", server.baseURL], input: "/models\n")
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout == "  good-model\n  evil model\n")
        expectClean(result.stdout)
    }
}
