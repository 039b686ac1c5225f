import ChatTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Fault injection: the built `chat` binary against servers that fail in every way the
/// reliability issue lists, one test per failure. Each asserts the exit status, what stdout kept
/// (text already shown stays, nothing is doubled), the wording of the one `chat: error:` line,
/// that the API key never appears in any output, how many requests arrived, and, loosely, how
/// long retries took (backoff is about 0.5 s doubling, with jitter taking off at most a quarter).
///
/// Nothing leaves loopback: the allowed path of `--allow-insecure-http` to a TEST-NET address goes
/// through a loopback `http_proxy`; the DNS test (a name under `.invalid`) runs only where such a
/// name fails within a second. The connect timeout uses a listener whose accept queue is full,
/// which Linux answers by dropping the SYN. Already in `OneShotCommandTests`, so not repeated:
/// SIGINT/SIGTERM/SIGHUP mid-answer, SIGPIPE, a plain cut stream.
@Suite struct FaultInjectionTests {
    /// The key every run has in `OPENAI_API_KEY`; no output may ever contain it.
    static let key = "sk-fault-SECRET-0123456789abcdef"

    private func makeChat(_ environment: [String: String] = [:]) -> ChatBinary {
        ChatBinary(environment: ["OPENAI_API_KEY": Self.key].merging(environment) { $1 })
    }

    /// `makeChat` with a config whose connect and idle timeouts are 120 s, and the arguments that
    /// name it. A test that chat gives up at once, or after a flag's 1 s, can then allow a loaded
    /// machine (a chat process has taken 8.7 s to start and fail there) 30 s and still tell either
    /// from waiting out a timeout.
    private func makePatientChat(_ environment: [String: String] = [:]) throws -> (ChatBinary, [String]) {
        let chat = makeChat(environment)
        return (chat, ["--config", try chat.writeConfig(#"{"connect_timeout": 120, "idle_timeout": 120}"#)])
    }

    /// Longer than any run takes on a loaded machine; far shorter than the patient timeouts.
    private static let loadedMachine = 30.0

    /// Runs chat and measures how long it took, in seconds.
    private func timedRun(_ chat: ChatBinary, _ arguments: [String]) async throws -> (ChatBinary.Result, Double) {
        try await chat.timedRunOffThePool(arguments)
    }

    /// A failure as a person sees it: `status`, stdout exactly `stdout`, one `chat: error:` line
    /// (two lines at most) that contains every one of `saying`, and no trace of the key.
    private func expectFailure(
        _ result: ChatBinary.Result, status: Int32 = 1, stdout: String = "", saying: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == status, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout == stdout, sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect((1...2).contains(lines.count), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(lines.filter { $0.hasPrefix("chat: error: ") }.count == 1, sourceLocation: sourceLocation)
        #expect(result.stderr.hasSuffix("\n"), sourceLocation: sourceLocation)
        for part in saying {
            #expect(
                result.stderr.contains(part), "missing \"\(part)\" in: \(result.stderr)", sourceLocation: sourceLocation
            )
        }
        expectNoKey(result, sourceLocation: sourceLocation)
    }

    private func expectNoKey(_ result: ChatBinary.Result, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!result.stdout.contains("SECRET"), sourceLocation: sourceLocation)
        #expect(!result.stderr.contains("SECRET"), sourceLocation: sourceLocation)
    }

    private static func answer(_ pieces: [String]) -> [ServerStep] {
        ServerStep.sse(pieces.map(ServerStep.chatChunk) + [ServerStep.finishChunk()])
    }

    /// The head of a streamed answer, for scripts that go wrong after it.
    private static let streamHead = ServerStep.head(
        status: 200, headers: [("Content-Type", "text/event-stream")], chunked: true)

    private static func event(_ json: String) -> ServerStep { .text("data: \(json)\n\n") }

    // MARK: - Connecting

    @Test func connectionRefusedFailsAtOnceWithoutRetries() async throws {
        let port = try RawSocket(.refusing)
        defer { port.stop() }
        let (chat, config) = try makePatientChat()
        let (result, elapsed) = try await timedRun(
            chat, config + ["--base-url", port.baseURL, "--retries", "0", "hi"])
        expectFailure(result, saying: ["connection failed:", "is the server running"])
        #expect(elapsed < Self.loadedMachine, "took \(elapsed) s")
    }

    @Test func connectionRefusedIsRetriedWithBackoff() async throws {
        let port = try RawSocket(.refusing)
        defer { port.stop() }
        let (result, elapsed) = try await timedRun(makeChat(), ["--base-url", port.baseURL, "--retries", "2", "hi"])
        expectFailure(result, saying: ["connection failed:", "is the server running"])
        // Two retries: 0.5 s and 1 s, each less at most a quarter for jitter.
        #expect(elapsed >= 1.1, "took \(elapsed) s")
        #expect(elapsed < Self.loadedMachine, "took \(elapsed) s")
    }

    @Test func dropBeforeTheResponseIsRetriedThenReported() async throws {
        let arrivals = Arrivals()
        let server = try LoopbackServer { _, _ in
            arrivals.record()
            return []  // read the request, then close without a word
        }
        defer { server.stop() }
        let (result, elapsed) = try await timedRun(makeChat(), ["--base-url", server.baseURL, "--retries", "2", "hi"])
        expectFailure(result, saying: ["connection failed:", "Empty reply from server"])
        #expect(server.requests.count == 3)
        let gaps = arrivals.gaps
        #expect(gaps.count == 2)
        #expect(gaps.first.map { $0 >= 0.37 && $0 < 6 } == true, "gaps \(gaps)")
        #expect(gaps.last.map { $0 >= 0.74 && $0 < 6 } == true, "gaps \(gaps)")
        #expect(elapsed >= 1.1 && elapsed < Self.loadedMachine, "took \(elapsed) s")
    }

    @Test(.enabled(if: InvalidNames.failFast, "a .invalid name does not fail within 1 s here"))
    func unknownHostIsNotRetried() async throws {
        let (chat, config) = try makePatientChat()
        let (result, elapsed) = try await timedRun(
            chat, config + ["--base-url", "https://chat-fault-test.invalid/v1", "--retries", "2", "hi"])
        expectFailure(result, saying: ["Could not resolve host: chat-fault-test.invalid", "check the host name"])
        #expect(elapsed < Self.loadedMachine, "took \(elapsed) s")
    }

    @Test func tlsToAPlainHTTPServerIsOneClearLineAndNotRetried() async throws {
        // What a plain HTTP server answers to a TLS ClientHello.
        let server = try RawSocket(
            .replying(Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)))
        defer { server.stop() }
        let result = try await makeChat().runOffThePool([
            "--base-url", "https://127.0.0.1:\(server.port)/v1", "--retries", "2", "hi",
        ])
        expectFailure(result, saying: ["connection failed:", "TLS handshake failed", "scheme"])
        #expect(server.connections == 1)
    }

    @Test func refusingProxyIsNamedWithItsVariable() async throws {
        let proxy = try RawSocket(.refusing)
        defer { proxy.stop() }
        let (result, _) = try await timedRun(
            makeChat(["HTTPS_PROXY": "http://127.0.0.1:\(proxy.port)"]),
            ["--base-url", "https://api.example.invalid/v1", "--retries", "0", "hi"])
        expectFailure(
            result,
            saying: [
                "through the proxy http://127.0.0.1:\(proxy.port) (from HTTPS_PROXY)", "check the proxy, or unset it",
            ])
    }

    #if os(Linux)
        @Test func connectTimeoutHasItsOwnLine() async throws {
            // Linux drops a SYN while the listener's accept queue is full: a connect that never
            // completes, deterministic and on loopback.
            let server = try RawSocket(.unresponsive)
            defer { server.stop() }
            let (chat, config) = try makePatientChat()
            let (result, elapsed) = try await timedRun(
                chat, config + ["--base-url", server.baseURL, "--connect-timeout", "1", "--retries", "0", "hi"])
            expectFailure(result, saying: ["could not connect within 1 s", "--connect-timeout"])
            #expect(elapsed >= 0.95 && elapsed < Self.loadedMachine, "took \(elapsed) s")
        }
    #endif

    @Test func tlsHandshakeThatNeverAnswersIsAConnectTimeout() async throws {
        // The loopback server waits for an HTTP request that never comes: the ClientHello stays
        // unanswered, so connecting (TCP and TLS) does not finish.
        let server = try LoopbackServer { _, _ in [] }
        defer { server.stop() }
        let (chat, config) = try makePatientChat()
        let (result, elapsed) = try await timedRun(
            chat,
            config + [
                "--base-url", "https://127.0.0.1:\(server.port)/v1", "--connect-timeout", "1", "--retries", "0", "hi",
            ])
        expectFailure(result, saying: ["could not connect within 1 s"])
        #expect(elapsed >= 0.95 && elapsed < Self.loadedMachine, "took \(elapsed) s")
    }

    // MARK: - Streams that go wrong

    @Test func idleTimeoutMidStreamKeepsTheTextAndIsNotRetried() async throws {
        let server = try LoopbackServer { _, _ in
            [Self.streamHead, Self.event(ServerStep.chatChunk("partial answer")), .stall(10)]
        }
        defer { server.stop() }
        let (chat, config) = try makePatientChat()
        let (result, elapsed) = try await timedRun(
            chat, config + ["--base-url", server.baseURL, "--idle-timeout", "1", "--retries", "2", "hi"])
        expectFailure(
            result, stdout: "partial answer\n", saying: ["no data from the server for 1 s", "--idle-timeout"])
        #expect(server.requests.count == 1)
        #expect(elapsed >= 0.95 && elapsed < Self.loadedMachine, "took \(elapsed) s")
    }

    @Test func closeMidPieceKeepsTheTextAndIsNotRetried() async throws {
        let server = try LoopbackServer { _, _ in
            [
                Self.streamHead, Self.event(ServerStep.chatChunk("first part")), .pause(0.05),
                // A chunk frame announcing 0x64 bytes, cut after a few of them.
                .raw(Array("64\r\ndata: {\"choices\":[{\"delta\":{\"content\":\"sec".utf8)), .close,
            ]
        }
        defer { server.stop() }
        let result = try await makeChat().runOffThePool(["--base-url", server.baseURL, "--retries", "2", "hi"])
        expectFailure(result, stdout: "first part\n", saying: ["cut off"])
        #expect(server.requests.count == 1)
    }

    @Test func invalidJSONInAChunkKeepsEarlierText() async throws {
        let server = try LoopbackServer { _, _ in
            [
                Self.streamHead, Self.event(ServerStep.chatChunk("Hello")),
                Self.event(#"{"choices":[{"index":0,"delta":{"content":"wor"#),
                Self.event(ServerStep.chatChunk(" never shown")), Self.event("[DONE]"), .end,
            ]
        }
        defer { server.stop() }
        let result = try await makeChat().runOffThePool(["--base-url", server.baseURL, "--retries", "2", "hi"])
        expectFailure(result, stdout: "Hello\n", saying: ["invalid JSON in the stream"])
        #expect(server.requests.count == 1)
    }

    @Test func errorObjectMidStreamShowsItsMessage() async throws {
        let message = "The server had an error while processing your request. Sorry about that!"
        let server = try LoopbackServer { _, _ in
            [
                Self.streamHead, Self.event(ServerStep.chatChunk("Hello")),
                Self.event(#"{"error":{"message":"\#(message)","type":"server_error","param":null,"code":null}}"#),
                .end,
            ]
        }
        defer { server.stop() }
        let result = try await makeChat().runOffThePool(["--base-url", server.baseURL, "--retries", "2", "hi"])
        expectFailure(result, stdout: "Hello\n", saying: ["the server reported an error: \(message)"])
        #expect(server.requests.count == 1)
    }

    @Test func hugeSingleLineArrivesWhole() async throws {
        // 2.5 MB of content in one `data:` line, sent in 64 KiB pieces as a server would.
        let unit = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-\u{00FC}\u{4E2D}\n"
        let content = String(repeating: unit, count: 2_500_000 / unit.utf8.count + 1)
        let line = Array("data: \(ServerStep.chatChunk(content))\n\n".utf8)
        var steps: [ServerStep] = [Self.streamHead]
        var offset = 0
        while offset < line.count {
            steps.append(.body(Array(line[offset..<min(offset + 65_536, line.count)])))
            offset += 65_536
        }
        steps += [Self.event(ServerStep.finishChunk()), Self.event("[DONE]"), .end]
        let script = steps
        let server = try LoopbackServer { _, _ in script }
        defer { server.stop() }
        let result = try await makeChat().runOffThePool(["--base-url", server.baseURL, "hi"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(content.utf8.count >= 2_500_000)
        #expect(result.stdout.utf8.count == content.utf8.count)  // ends with its own newline
        #expect(result.stdout == content)
        #expect(result.stderr == "")
    }

    // MARK: - HTTP errors

    @Test func htmlGatewayPageSays502AndIsNotDumped() async throws {
        let page = """
            <html>
            <head><title>502 Bad Gateway</title></head>
            <body>
            <center><h1>502 Bad Gateway</h1></center>
            <hr><center>nginx/1.25.3</center>
            </body>
            </html>
            """
        let arrivals = Arrivals()
        let server = try LoopbackServer { _, _ in
            arrivals.record()
            return ServerStep.json(status: 502, page, headers: [("Content-Type", "text/html")])
        }
        defer { server.stop() }
        let (result, elapsed) = try await timedRun(makeChat(), ["--base-url", server.baseURL, "--retries", "2", "hi"])
        expectFailure(result, saying: ["502", "Bad Gateway", "HTML page", "gateway"])
        #expect(!result.stderr.contains("<"))
        #expect(!result.stderr.contains("nginx"))
        #expect(server.requests.count == 3)
        #expect(arrivals.gaps.count == 2 && arrivals.gaps.reduce(0, +) >= 1.1, "gaps \(arrivals.gaps)")
        #expect(elapsed < Self.loadedMachine, "took \(elapsed) s")
    }

    @Test func badRequestShowsTheServersMessageAndIsNotRetried() async throws {
        let body =
            #"{"error":{"message":"This model's maximum context length is 128000 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}"#
        let server = try LoopbackServer { _, _ in ServerStep.json(status: 400, body) }
        defer { server.stop() }
        let chat = makeChat()

        let whole = try await chat.runOffThePool(["--base-url", server.baseURL, "--no-stream", "--retries", "2", "hi"])
        expectFailure(whole, saying: ["400 bad request: This model's maximum context length is 128000 tokens."])
        #expect(server.requests.count == 1)

        // Streaming, the request carries `stream_options`; this 400 does not name them, so it is
        // sent once (changed by issue 17: every streaming 400 used to be sent again without them).
        let streamed = try await chat.runOffThePool(["--base-url", server.baseURL, "--retries", "2", "hi"])
        expectFailure(streamed, saying: ["400 bad request: This model's maximum context length is 128000 tokens."])
        #expect(server.requests.count == 2)
        #expect(server.requests.count == 2 && server.requests[1].bodyText.contains("stream_options"))
    }

    @Test(arguments: [
        (
            401,
            #"{"error":{"message":"Incorrect API key provided: sk-fault-***cdef.","type":"invalid_request_error","code":"invalid_api_key"}}"#,
            "check your API key"
        ),
        (
            403,
            #"{"error":{"message":"You are not allowed to sample from this model","type":"invalid_request_error"}}"#,
            "your API key may not use this model"
        ),
    ])
    func unauthorizedAndForbiddenPointAtTheKey(status: Int, body: String, hint: String) async throws {
        let server = try LoopbackServer { _, _ in ServerStep.json(status: status, body) }
        defer { server.stop() }
        let result = try await makeChat().runOffThePool(["--base-url", server.baseURL, "--retries", "2", "hi"])
        expectFailure(result, saying: ["chat: error: \(status) ", hint])
        #expect(server.requests.count == 1)
    }

    @Test func modelNotFoundSaysModel() async throws {
        let body =
            #"{"error":{"message":"The model `gpt-9` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}"#
        let server = try LoopbackServer { _, _ in ServerStep.json(status: 404, body) }
        defer { server.stop() }
        let result = try await makeChat().runOffThePool([
            "--base-url", server.baseURL, "-m", "gpt-9", "--retries", "2", "hi",
        ])
        expectFailure(
            result,
            saying: [
                "404 not found at \(server.baseURL)/chat/completions", "The model `gpt-9` does not exist",
                "check the model name",
            ])
        #expect(server.requests.count == 1)
    }

    @Test func htmlNotFoundAtABaseURLWithoutV1NamesTheURLAndSuggestsV1() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.json(
                status: 404, "<!DOCTYPE html><html><body><h1>Not Found</h1></body></html>",
                headers: [("Content-Type", "text/html; charset=utf-8")])
        }
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let result = try await makeChat().runOffThePool(["--base-url", base, "--retries", "2", "hi"])
        expectFailure(result, saying: ["404 not found at \(base)/chat/completions", "missing /v1"])
        #expect(!result.stderr.contains("<h1>"))
        #expect(server.requests.map(\.path) == ["/chat/completions"])
    }

    @Test func rateLimitWaitsRetryAfterThenAnswers() async throws {
        let arrivals = Arrivals()
        let server = try LoopbackServer { _, index in
            arrivals.record()
            return index == 0
                ? ServerStep.json(
                    status: 429,
                    #"{"error":{"message":"Rate limit reached for requests","type":"requests","code":"rate_limit_exceeded"}}"#,
                    headers: [("Retry-After", "1")])
                : Self.answer(["after the wait"])
        }
        defer { server.stop() }
        let result = try await makeChat().runOffThePool(["--base-url", server.baseURL, "--retries", "1", "hi"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout == "after the wait\n")
        #expect(result.stderr == "")
        #expect(server.requests.count == 2)
        let gap = arrivals.gaps.first ?? 0
        #expect(gap >= 0.95 && gap < 8, "waited \(gap) s")
    }

    @Test func rateLimitStillFailingAfterRetriesSaysRateLimited() async throws {
        let arrivals = Arrivals()
        let server = try LoopbackServer { _, _ in
            arrivals.record()
            return ServerStep.json(
                status: 429, #"{"error":{"message":"Rate limit reached","type":"requests"}}"#,
                headers: [("retry-after-ms", "2500")])
        }
        defer { server.stop() }
        let result = try await makeChat().runOffThePool(["--base-url", server.baseURL, "--retries", "1", "hi"])
        expectFailure(result, saying: ["429 rate limited: Rate limit reached"])
        #expect(server.requests.count == 2)
        // retry-after-ms wins over the backoff, which would wait at most 0.5 s.
        let gap = arrivals.gaps.first ?? 0
        #expect(gap >= 2.4 && gap < 10, "waited \(gap) s")
    }

    @Test func quotaExceededIsNotRetried() async throws {
        let body =
            #"{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}"#
        let server = try LoopbackServer { _, _ in ServerStep.json(status: 429, body, headers: [("Retry-After", "1")]) }
        defer { server.stop() }
        let result = try await makeChat().runOffThePool(["--base-url", server.baseURL, "--retries", "2", "hi"])
        expectFailure(
            result, saying: ["429 quota exceeded", "You exceeded your current quota", "waiting will not help"])
        #expect(server.requests.count == 1)
    }

    @Test func longRetryAfterIsReportedNotSlept() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.json(
                status: 429, #"{"error":{"message":"Rate limit reached","type":"requests"}}"#,
                headers: [("Retry-After", "3600")])
        }
        defer { server.stop() }
        let (result, elapsed) = try await timedRun(makeChat(), ["--base-url", server.baseURL, "--retries", "2", "hi"])
        expectFailure(result, saying: ["429 rate limited", "the server asks to wait 3600 s"])
        #expect(server.requests.count == 1)
        #expect(elapsed < Self.loadedMachine, "took \(elapsed) s")
    }

    @Test func shouldRetryFalseIsHonoured() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.json(
                status: 503, #"{"error":{"message":"Service overloaded","type":"server_error"}}"#,
                headers: [("x-should-retry", "false")])
        }
        defer { server.stop() }
        let result = try await makeChat().runOffThePool(["--base-url", server.baseURL, "--retries", "2", "hi"])
        expectFailure(result, saying: ["503 server error: Service overloaded"])
        #expect(server.requests.count == 1)
    }

    @Test(arguments: [0, 1])
    func serverErrorAfterRetriesFails(retries: Int) async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.json(
                status: 500,
                #"{"error":{"message":"The server had an error while processing your request.","type":"server_error"}}"#
            )
        }
        defer { server.stop() }
        let result = try await makeChat().runOffThePool(["--base-url", server.baseURL, "--retries", "\(retries)", "hi"])
        expectFailure(result, saying: ["500 server error: The server had an error while processing your request."])
        #expect(server.requests.count == retries + 1)
    }

    @Test func serviceUnavailableThenAnswerArrivesOnce() async throws {
        let arrivals = Arrivals()
        let server = try LoopbackServer { _, index in
            arrivals.record()
            return index == 0
                ? ServerStep.json(status: 503, #"{"error":{"message":"overloaded","type":"server_error"}}"#)
                : Self.answer(["one ", "two ", "three"])
        }
        defer { server.stop() }
        let result = try await makeChat().runOffThePool(["--base-url", server.baseURL, "--retries", "2", "hi"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout == "one two three\n")
        #expect(result.stderr == "")  // the retry note is for a terminal only
        #expect(server.requests.count == 2)
        let gap = arrivals.gaps.first ?? 0
        #expect(gap >= 0.37 && gap < 6, "waited \(gap) s")
    }

    // MARK: - Secrets

    @Test func verboseShowsTheRequestAndRedactsSecrets() async throws {
        let server = try LoopbackServer { _, _ in Self.answer(["fine"]) }
        defer { server.stop() }
        let chat = makeChat()
        let config = try chat.writeConfig(#"{"headers": {"X-Api-Key": "other-SECRET-value", "X-Title": "tests"}}"#)
        let result = try await chat.runOffThePool(["--config", config, "--base-url", server.baseURL, "--verbose", "hi"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout == "fine\n")
        #expect(result.stderr.contains("> POST \(server.baseURL)/chat/completions"))
        #expect(result.stderr.contains("> Authorization: [redacted]"))
        #expect(result.stderr.contains("> X-Api-Key: [redacted]"))
        #expect(result.stderr.contains("> X-Title: tests"))
        #expect(result.stderr.contains("< HTTP 200"))
        expectNoKey(result)
        #expect(server.requests.first?.header("x-api-key") == "other-SECRET-value")
    }

    @Test func keyIsNotSentOverPlainHTTPToAnotherHost() async throws {
        // A loopback proxy catches the request if chat tried to send it anyway: nothing leaves
        // this machine either way.
        let proxy = try LoopbackServer { _, _ in Self.answer(["should not happen"]) }
        defer { proxy.stop() }
        let (chat, config) = try makePatientChat(["http_proxy": "http://127.0.0.1:\(proxy.port)"])
        let (result, elapsed) = try await timedRun(chat, config + ["--base-url", "http://192.0.2.1:9/v1", "hi"])
        expectFailure(
            result, status: 2,
            saying: ["refusing to send the API key over plain http to http://192.0.2.1:9/v1", "--allow-insecure-http"])
        #expect(elapsed < Self.loadedMachine, "took \(elapsed) s")

        // What follows `#` is a fragment, never sent: the host is 192.0.2.1, not 127.0.0.1.
        let disguised = try await makeChat(["http_proxy": "http://127.0.0.1:\(proxy.port)"]).runOffThePool([
            "--base-url", "http://192.0.2.1:9#@127.0.0.1/v1", "hi",
        ])
        expectFailure(disguised, status: 2, saying: ["refusing to send the API key over plain http"])
        #expect(proxy.requests.isEmpty)
    }

    @Test func allowingInsecureHTTPSendsTheKey() async throws {
        // Through a loopback `http_proxy`, so the request for 192.0.2.1 (TEST-NET) stays here.
        let proxy = try LoopbackServer { _, _ in Self.answer(["over http"]) }
        defer { proxy.stop() }
        let chat = makeChat(["http_proxy": "http://127.0.0.1:\(proxy.port)", "BOX_KEY": Self.key])

        let flag = try await chat.runOffThePool(["--base-url", "http://192.0.2.1:9/v1", "--allow-insecure-http", "hi"])
        #expect(flag.status == 0, "stderr: \(flag.stderr)")
        #expect(flag.stdout == "over http\n")

        let allowing = try chat.writeConfig(
            #"{"profiles": {"box": {"base_url": "http://192.0.2.1:9/v1", "api_key_env": "BOX_KEY", "allow_insecure_http": true}}}"#,
            name: "allowing.json")
        let profile = try await chat.runOffThePool(["--config", allowing, "--profile", "box", "hi"])
        #expect(profile.status == 0, "stderr: \(profile.stderr)")
        #expect(profile.stdout == "over http\n")

        let strict = try chat.writeConfig(
            #"{"profiles": {"box": {"base_url": "http://192.0.2.1:9/v1", "api_key_env": "BOX_KEY"}}}"#,
            name: "strict.json")
        let refused = try await chat.runOffThePool(["--config", strict, "--profile", "box", "hi"])
        expectFailure(
            refused, status: 2,
            saying: ["refusing to send the API key over plain http"])

        #expect(proxy.requests.map(\.path) == Array(repeating: "http://192.0.2.1:9/v1/chat/completions", count: 2))
        #expect(proxy.requests.allSatisfy { $0.header("authorization") == "Bearer \(Self.key)" })
    }

    @Test func savedConversationIsPrivateAndPipedInputKeepsNoHistory() async throws {
        let server = try LoopbackServer { _, _ in Self.answer(["saved answer"]) }
        defer { server.stop() }
        let chat = makeChat()
        let file = chat.home + "/conversation.json"
        // An existing world-readable file is replaced by a private one.
        try "old".write(toFile: file, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)

        // umask 000, so only the mode chat asks for decides.
        let result = try await chat.runInShell(
            #"umask 000; exec "$0" -i --base-url "$1""#, [ChatBinary.path, server.baseURL],
            input: "remember this\n/save \(file)\n")
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("saved answer"))
        #expect(result.stderr.contains("saved 2 messages to \(file)"))
        expectNoKey(result)

        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let saved = try String(contentsOfFile: file, encoding: .utf8)
        #expect(saved.contains("remember this") && saved.contains("saved answer"))
        #expect(!saved.contains("SECRET"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: chat.home).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)

        #expect(!FileManager.default.fileExists(atPath: chat.home + "/data/chat/input_history"))
        #expect(!FileManager.default.fileExists(atPath: chat.home + "/.local/share/chat"))
    }

    @Test func configWithAKeyReadableByOthersIsWarnedAbout() async throws {
        let server = try LoopbackServer { _, _ in Self.answer(["ok"]) }
        defer { server.stop() }
        let chat = ChatBinary()  // the key comes from the config only, for the config's server
        let json = #"{"base_url": "\#(server.baseURL)", "api_key": "\#(Self.key)"}"#

        let open = try chat.writeConfig(json, name: "open.json", mode: 0o644)
        let warned = try await chat.runOffThePool(["--config", open, "hi"])
        #expect(warned.status == 0, "stderr: \(warned.stderr)")
        #expect(warned.stdout == "ok\n")
        #expect(
            warned.stderr
                == "chat: warning: \(open) holds an api_key and others can read it; run: chmod 600 \(open)\n")
        expectNoKey(warned)

        let closed = try chat.writeConfig(json, name: "closed.json", mode: 0o600)
        let quiet = try await chat.runOffThePool(["--config", closed, "hi"])
        #expect(quiet.status == 0)
        #expect(quiet.stdout == "ok\n")
        #expect(quiet.stderr == "")
        #expect(server.requests.allSatisfy { $0.header("authorization") == "Bearer \(Self.key)" })
    }
}

// MARK: - Helpers

extension Duration {
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// When requests arrived, to time the waits between attempts from the server's side.
private final class Arrivals: Sendable {
    private let times = Mutex<[ContinuousClock.Instant]>([])

    func record() { times.withLock { $0.append(.now) } }

    /// Seconds between consecutive arrivals.
    var gaps: [Double] {
        let times = times.withLock { $0 }
        return zip(times, times.dropFirst()).map { ($1 - $0).seconds }
    }
}

/// Whether resolving a name under `.invalid` fails, and within a second, on this machine: the
/// DNS test runs only then (no network, or a resolver that answers NXDOMAIN at once).
private enum InvalidNames {
    static let failFast: Bool = {
        let start = ContinuousClock.now
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo("chat-fault-probe.invalid", "443", nil, &result)
        if let result { freeaddrinfo(result) }
        return status != 0 && (ContinuousClock.now - start) < .seconds(1)
    }()
}

/// At most two `chat` runs at a time, each timed from when its turn came: running all of them
/// at once would make every process slow and the timing bounds meaningless. Waiting suspends the
/// task; it never blocks a thread of the shared cooperative pool.
private actor Turns {
    static let shared = Turns(limit: 2)
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) { free = limit }

    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}

extension ChatBinary {
    /// `run`, in turn; with how long it ran, in seconds.
    func timedRunOffThePool(_ arguments: [String]) async throws -> (Result, Double) {
        await Turns.shared.acquire()
        let start = ContinuousClock.now
        do {
            let result = try await run(arguments)
            await Turns.shared.release()
            return (result, (ContinuousClock.now - start).seconds)
        } catch {
            await Turns.shared.release()
            throw error
        }
    }

    /// `run`, in turn.
    func runOffThePool(_ arguments: [String]) async throws -> Result {
        try await timedRunOffThePool(arguments).0
    }

    /// Runs `/bin/sh -c script` with `arguments` as `$0 $1 …`, this binary's environment, and
    /// `input` on stdin; in turn.
    func runInShell(_ script: String, _ arguments: [String], input: String) async throws -> Result {
        await Turns.shared.acquire()
        do {
            let result = try await start(["-c", script] + arguments, input: input, executable: "/bin/sh").wait()
            await Turns.shared.release()
            return result
        } catch {
            await Turns.shared.release()
            throw error
        }
    }
}

/// A bare TCP socket on 127.0.0.1 for the faults below HTTP, which `LoopbackServer` cannot play.
private final class RawSocket: Sendable {
    enum Behaviour {
        /// Bound but never listening: every connect is refused, and no other process can take
        /// the port meanwhile.
        case refusing
        /// Listening with a backlog of 0 that the socket fills itself, never accepting: Linux drops
        /// further SYNs, so a connect never completes.
        case unresponsive
        /// Accepts, reads what arrives first, answers these bytes and closes.
        case replying([UInt8])
    }

    /// What the serving thread shares with the socket (never the socket itself, so that the
    /// socket's `deinit` can stop it).
    private final class Shared: Sendable {
        struct State {
            var stopped = false
            var running = false
            var connections = 0
            var closed = false
        }
        let listener: Int32
        let fillers: [Int32]
        let state = Mutex(State())

        init(listener: Int32, fillers: [Int32]) {
            self.listener = listener
            self.fillers = fillers
        }

        var stopped: Bool { state.withLock { $0.stopped } }
    }

    let port: Int
    private let shared: Shared

    var baseURL: String { "http://127.0.0.1:\(port)/v1" }

    /// Connections accepted so far (`.replying` only).
    var connections: Int { shared.state.withLock { $0.connections } }

    init(_ behaviour: Behaviour) throws {
        // Close-on-exec: a chat process another test starts meanwhile must not hold it open.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        let listening: Bool
        switch behaviour {
        case .refusing: listening = true
        case .unresponsive: listening = listen(fd, 0) == 0
        case .replying: listening = listen(fd, 16) == 0
        }
        guard bound && listening else {
            let code = errno
            close(fd)
            throw POSIXError(.init(rawValue: code) ?? .EIO)
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        self.port = port
        var fillers: [Int32] = []
        if case .unresponsive = behaviour {
            // One connection fills the queue; the second is left half-open, as chat's will be.
            fillers = (0..<2).map { _ in Self.startConnect(port: port) }
        }
        shared = Shared(listener: fd, fillers: fillers)
        if case .replying(let reply) = behaviour {
            let shared = self.shared
            shared.state.withLock { $0.running = true }
            Thread { Self.serve(shared, reply) }.start()
        }
    }

    deinit { stop() }

    /// Stops serving and closes every socket. Idempotent.
    func stop() {
        shared.state.withLock { $0.stopped = true }
        while shared.state.withLock({ $0.running }) { usleep(2_000) }
        let close = shared.state.withLock { state in
            defer { state.closed = true }
            return !state.closed
        }
        guard close else { return }
        for fd in shared.fillers { Glibc.close(fd) }
        Glibc.close(shared.listener)
    }

    private static func serve(_ shared: Shared, _ reply: [UInt8]) {
        while !shared.stopped {
            var entry = pollfd(fd: shared.listener, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 20) > 0 else { continue }
            let fd = accept(shared.listener, nil, nil)
            guard fd >= 0 else { continue }
            // Close-on-exec (Glibc does not import accept4; the window left is too short to matter here).
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            shared.state.withLock { $0.connections += 1 }
            var scratch = [UInt8](repeating: 0, count: 4096)
            var client = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&client, 1, 2_000) > 0 { _ = recv(fd, &scratch, scratch.count, 0) }
            _ = reply.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            shutdown(fd, Int32(SHUT_WR))
            // Drain what the client still sends (a TLS alert) so closing does not reset the reply.
            while poll(&client, 1, 200) > 0, recv(fd, &scratch, scratch.count, 0) > 0 {}
            close(fd)
        }
        shared.state.withLock { $0.running = false }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        address.sin_port = UInt16(port).bigEndian
        return address
    }

    /// A non-blocking connect to `port`, left to complete (or not) on its own.
    private static func startConnect(port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        var address = loopback(port: port)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        usleep(20_000)  // let the handshake land in the queue before the next one
        return fd
    }
}
