import ChatDomain
import ChatPresentation
import Testing

/// The exact line a person reads for each error: the facts the error carries, and the flag,
/// command or setting that helps.
@Suite("Error wording")
struct ErrorWordingTests {
    private static let chatURL = "https://api.openai.com/v1/chat/completions"

    @Test(
        "each ChatError has its line",
        arguments: [
            (
                ChatError.unauthorized(message: "Incorrect API key provided"),
                "401 unauthorized: Incorrect API key provided (check your API key: OPENAI_API_KEY, "
                    + "ANTHROPIC_API_KEY for the anthropic provider, or the config's api_key_* settings)"
            ),
            (
                .forbidden(message: "no access"),
                "403 forbidden: no access (your API key may not use this model or endpoint)"
            ),
            (
                .notFound(url: chatURL, message: "The model `gpt-9` does not exist", clue: .messageNamesModel),
                "404 not found at \(chatURL): The model `gpt-9` does not exist (check the model name: "
                    + "chat --models lists them)"
            ),
            (
                .notFound(url: "http://localhost:11434/chat/completions", message: "Not Found", clue: .urlLacksV1),
                "404 not found at http://localhost:11434/chat/completions: Not Found (the base URL may be missing "
                    + "/v1, e.g. http://localhost:11434/v1)"
            ),
            (
                .notFound(url: chatURL, message: "gone", clue: .unknown),
                "404 not found at \(chatURL): gone (is the base URL right?)"
            ),
            (
                .rateLimited(retryAfter: 2, quotaExceeded: false, message: "m"),
                "429 rate limited: m (the server asks to wait 2 s)"
            ),
            (
                .rateLimited(retryAfter: 1.5, quotaExceeded: false, message: "m"),
                "429 rate limited: m (the server asks to wait 1.5 s)"
            ),
            (
                .rateLimited(retryAfter: nil, quotaExceeded: false, message: "m"),
                "429 rate limited: m (wait a moment and try again)"
            ),
            (
                .rateLimited(retryAfter: 1, quotaExceeded: true, message: "m"),
                "429 quota exceeded: m (check your plan and billing; waiting will not help)"
            ),
            (.badRequest(status: 422, message: "m"), "422 bad request: m"),
            (
                .badRequest(
                    status: 400,
                    message: "Unsupported value: 'reasoning_effort' does not support 'xhigh' with this model."),
                "400 bad request: Unsupported value: 'reasoning_effort' does not support 'xhigh' with this model. "
                    + "(the server refused the reasoning asked for: try another --effort level, or leave effort and "
                    + "thinking out)"
            ),
            (.server(status: 502, message: "Bad Gateway"), "502 server error: Bad Gateway"),
            (
                .connection(.refused, message: "Failed to connect"),
                "connection failed: Failed to connect (is the server running, and is the base URL's port right?)"
            ),
            (
                .connection(.hostNotFound, message: "Could not resolve host: x"),
                "connection failed: Could not resolve host: x (check the host name in the base URL)"
            ),
            (
                .connection(.proxyNotFound, message: "Could not resolve proxy: p"),
                "connection failed: Could not resolve proxy: p (check the proxy setting: proxy in the config, or "
                    + "https_proxy/HTTPS_PROXY/ALL_PROXY)"
            ),
            (
                .connection(.tls, message: "SSL error"),
                "connection failed: SSL error (the TLS handshake failed; check the URL's scheme and the server's "
                    + "certificate)"
            ),
            (
                .connection(.proxy("http://p:3128 (from HTTPS_PROXY)"), message: "Failed to connect"),
                "connection failed: through the proxy http://p:3128 (from HTTPS_PROXY): Failed to connect (check the "
                    + "proxy, or unset it)"
            ),
            (.connection(.other, message: "refused"), "connection failed: refused"),
            (
                .connection(
                    .certificate(trustStore: nil), message: "SSL certificate problem: unable to get local issuer"),
                "connection failed: SSL certificate problem: unable to get local issuer (checked with the system's trust "
                    + "store; to trust a private CA, such as a company proxy's or a self-hosted gateway's, give its "
                    + "certificate with --ca-cert FILE, ca_cert in the config, or SSL_CERT_FILE)"
            ),
            (
                .connection(.certificate(trustStore: "/ca.pem (from --ca-cert)"), message: "SSL certificate problem"),
                "connection failed: SSL certificate problem (checked with /ca.pem (from --ca-cert); to trust a private "
                    + "CA, such as a company proxy's or a self-hosted gateway's, give its certificate with --ca-cert "
                    + "FILE, ca_cert in the config, or SSL_CERT_FILE)"
            ),
            (
                .connection(.clientCertificateWanted, message: "alert certificate required"),
                "connection failed: alert certificate required (the server wants a client certificate: give it with "
                    + "--client-cert FILE and --client-key FILE, or client_cert and client_key in the config)"
            ),
            (.connectTimeout(seconds: 10), "could not connect within 10 s (raise it with --connect-timeout)"),
            (
                .idleTimeout(seconds: 2.5),
                "no data from the server for 2.5 s; gave up (raise it with --idle-timeout)"
            ),
            (.streamError(message: "overloaded"), "the server reported an error: overloaded"),
            (.streamCut("connection reset"), "the answer was cut off: connection reset"),
            (.malformedResponse("no answer"), "unexpected response from the server: no answer"),
            (
                .unsupportedEncoding("xz"),
                "the server compressed its answer as \"xz\", which chat cannot decode (chat asks for an uncompressed "
                    + "answer; a proxy in between may be compressing it)"
            ),
            (.cancelled, "interrupted"),
        ] as [(ChatError, String)])
    func chatErrorLine(_ error: ChatError, _ line: String) {
        #expect(ErrorWording.line(for: error) == line)
    }

    @Test(
        "the server's words are one line without control characters, whichever error carries them",
        arguments: [
            ChatError.unauthorized(message: "bad\nkey\u{1B}[2J"), .forbidden(message: "bad\nkey\u{1B}[2J"),
            .notFound(url: "u", message: "bad\nkey\u{1B}[2J", clue: .unknown),
            .rateLimited(retryAfter: nil, quotaExceeded: false, message: "bad\nkey\u{1B}[2J"),
            .badRequest(status: 400, message: "bad\nkey\u{1B}[2J"), .server(status: 500, message: "bad\nkey\u{1B}[2J"),
            .connection(.other, message: "bad\nkey\u{1B}[2J"), .streamError(message: "bad\nkey\u{1B}[2J"),
            .streamCut("bad\nkey\u{1B}[2J"), .malformedResponse("bad\nkey\u{1B}[2J"),
        ] as [ChatError])
    func serverWordsAreCleaned(_ error: ChatError) {
        let line = ErrorWording.line(for: error)
        #expect(line.contains("bad key"))
        #expect(!line.contains("\n") && !line.contains("\u{1B}") && !line.contains("[2J"))
    }

    @Test(
        "each StorageError has its line",
        arguments: [
            (StorageError.missingFile(path: "/tmp/x"), "/tmp/x does not exist"),
            (
                .file(path: "/tmp/x", operation: .read, reason: "Permission denied"),
                "cannot read /tmp/x: Permission denied"
            ),
            (.file(path: "/tmp/x", operation: .write, reason: "No space left"), "cannot write /tmp/x: No space left"),
            (.newerFile(path: "/tmp/x", version: 3), "/tmp/x was written by a newer chat (version 3)"),
            (.unknownRole(message: 2, role: "robot"), "message 2 has an unknown role \"robot\""),
            (.unencodable(reason: "NaN"), "could not encode the conversation: NaN"),
            (
                .notAConversation(path: "/tmp/x", format: nil),
                "/tmp/x is not a conversation saved by chat (/save writes one)"
            ),
            (
                .notAConversation(path: "/tmp/x", format: "other"),
                "/tmp/x is not a conversation saved by chat (format \"other\")"
            ),
            (.notFound(id: "zzzz"), "no conversation zzzz (chat --list shows them)"),
            (.ambiguous(id: "a", matches: ["a1", "a2"]), "a could be a1, a2; give more of the id"),
            (
                .ambiguous(id: "a", matches: ["a1", "a2", "a3", "a4", "a5", "a6"]),
                "a could be a1, a2, a3, a4, a5; give more of the id"
            ),
            (.database(DatabaseFailure(reason: "disk I/O error")), "history: disk I/O error"),
            (
                .database(DatabaseFailure(.opening("/d/history.sqlite"), kind: .denied, reason: "unable to open")),
                "history: cannot open /d/history.sqlite: unable to open"
            ),
            (
                .database(DatabaseFailure(.creatingDirectory("/d"), kind: .denied, reason: "Permission denied")),
                "history: cannot create /d: Permission denied"
            ),
            (
                .database(DatabaseFailure(.securingDirectory("/d"), kind: .denied, reason: "Operation not permitted")),
                "history: cannot make /d private (this user's, mode 0700): Operation not permitted"
            ),
        ] as [(StorageError, String)])
    func storageErrorLine(_ error: StorageError, _ line: String) {
        #expect(ErrorWording.line(for: error) == line)
    }

    @Test(
        "each HistoryNotice has its line",
        arguments: [
            (
                HistoryNotice.notStored(DatabaseFailure(kind: .full, reason: "database or disk is full")),
                "history: could not save (database or disk is full); the conversation goes on and is stored as soon "
                    + "as a write succeeds"
            ),
            (
                .notStored(DatabaseFailure(.opening("/d/history.sqlite"), kind: .denied, reason: "unable to open")),
                "history: cannot open /d/history.sqlite: unable to open; the conversation goes on and is stored as "
                    + "soon as a write succeeds"
            ),
            (
                .salvaged(HistorySalvage(damagedPath: "/d/h.damaged", recovered: 3, partlyRecovered: 1, unreadable: 2)),
                "history: the database was damaged and a new one started: 3 conversations recovered, 1 recovered in "
                    + "part, 2 could not be read; the damaged file is kept as /d/h.damaged"
            ),
            (
                .salvaged(HistorySalvage(damagedPath: "/d/h.damaged", recovered: 0, partlyRecovered: 0, unreadable: 0)),
                "history: the database was damaged and a new one started: no conversation recovered; the damaged "
                    + "file is kept as /d/h.damaged"
            ),
            (
                .salvaged(HistorySalvage(damagedPath: "/d/h.damaged", recovered: 0, partlyRecovered: 1, unreadable: 0)),
                "history: the database was damaged and a new one started: 1 conversation recovered in part; the "
                    + "damaged file is kept as /d/h.damaged"
            ),
        ] as [(HistoryNotice, String)])
    func historyNoticeLine(_ notice: HistoryNotice, _ line: String) {
        #expect(ErrorWording.line(for: notice) == line)
    }

    @Test func eachRequestNoticeHasItsLine() {
        #expect(
            ErrorWording.line(for: .budgetAsEffort(tokens: 10000, effort: .medium, model: "claude-opus-4-7"))
                == "claude-opus-4-7 takes an effort, not a thinking budget: --thinking 10000 was asked for as "
                + "--effort medium")
        #expect(
            ErrorWording.line(for: .mayThinkUnasked(model: "claude-opus-4-7"))
                == "--effort none asks claude-opus-4-7 for no thinking, but it decides for itself and may still think")
    }

    @Test func unstoredMessagesAreCountedWithTheReasonAndWhereTheyAreKept() {
        let full = UnstoredMessages(count: 2, failure: DatabaseFailure(kind: .full, reason: "database or disk is full"))
        #expect(
            ErrorWording.unstoredLine(full, keptIn: "/tmp/chat-unstored-k3v.json", fileFailure: nil)
                == "history: 2 messages not stored (database or disk is full); the conversation is kept in "
                + "/tmp/chat-unstored-k3v.json instead (/load it in chat -i to go on)")
        #expect(
            ErrorWording.unstoredLine(full, keptIn: nil, fileFailure: "/tmp: No space left on device")
                == "history: 2 messages not stored (database or disk is full), and not kept elsewhere either "
                + "(/tmp: No space left on device)")
        let one = UnstoredMessages(
            count: 1, failure: DatabaseFailure(.opening("/d/history.sqlite"), kind: .denied, reason: "unable to open"))
        #expect(
            ErrorWording.unstoredOffer(one)
                == "history: 1 message not stored (cannot open /d/history.sqlite: unable to open): /save FILE keeps "
                + "the conversation; /exit again leaves without it")
    }
}
