import ChatDomain
import Testing

@testable import ChatHTTP
@testable import ChatJSON
@testable import ChatProviders

private let chatURL = "https://api.openai.com/v1/chat/completions"

/// Maps a response to an error as the OpenAI repository does (the engine's mapper with OpenAI's
/// error reader); header names are given lowercased, as the transport stores them.
private func mapped(
    _ status: Int,
    _ body: String,
    headers: [String: String] = ["content-type": "application/json"],
    url: String = chatURL
) -> ChatError {
    HTTPErrorMapper(url: url, readError: OpenAIProvider().errorDetail).error(
        for: HTTPResponseHead(status: status, headers: headers), body: Array(body.utf8))
}

private func openAIError(_ message: String, type: String, code: String? = nil) -> String {
    let codeJSON = code.map { "\"\($0)\"" } ?? "null"
    return #"{"error":{"message":"\#(message)","type":"\#(type)","param":null,"code":\#(codeJSON)}}"#
}

private let htmlPage = """
    <html>
    <head><title>502 Bad Gateway</title></head>
    <body>
    <center><h1>502 Bad Gateway</h1></center>
    <hr><center>nginx/1.25.3</center>
    </body>
    </html>
    """

struct MapperCase: Sendable, CustomTestStringConvertible {
    let name: String
    let status: Int
    let body: String
    let expected: ChatError

    init(_ name: String, _ status: Int, _ body: String, _ expected: ChatError) {
        self.name = name
        self.status = status
        self.body = body
        self.expected = expected
    }

    var testDescription: String { name }
}

private let mapperCases: [MapperCase] = [
    MapperCase(
        "401 is unauthorized with the server's message", 401,
        openAIError("Incorrect API key provided: sk-abc.", type: "invalid_request_error", code: "invalid_api_key"),
        .unauthorized(message: "Incorrect API key provided: sk-abc.")),
    MapperCase(
        "403 is forbidden with the server's message", 403,
        openAIError("Project does not have access to model gpt-5", type: "invalid_request_error"),
        .forbidden(message: "Project does not have access to model gpt-5")),
    MapperCase(
        "400 is badRequest with the server's message", 400,
        openAIError("Invalid value for 'temperature'", type: "invalid_request_error"),
        .badRequest(status: 400, message: "Invalid value for 'temperature'")),
    MapperCase(
        "422 is badRequest with its status", 422, #"{"error":"messages must not be empty"}"#,
        .badRequest(status: 422, message: "messages must not be empty")),
    MapperCase(
        "500 is server with the server's message", 500,
        openAIError("The server had an error while processing your request.", type: "server_error"),
        .server(status: 500, message: "The server had an error while processing your request.")),
    MapperCase(
        "502 is server", 502, #"{"error":{"message":"upstream failed"}}"#,
        .server(status: 502, message: "upstream failed")),
    MapperCase(
        "503 is server", 503, #"{"error":{"message":"Service Unavailable","type":"unavailable"}}"#,
        .server(status: 503, message: "Service Unavailable")),
    MapperCase(
        "vLLM's flat error object gives its message", 400,
        #"{"object":"error","message":"max_tokens is too large","type":"BadRequestError","param":null,"code":400}"#,
        .badRequest(status: 400, message: "max_tokens is too large")),
    MapperCase(
        "an error object without a message falls back to its type", 500, #"{"error":{"type":"overloaded_error"}}"#,
        .server(status: 500, message: "overloaded_error")),
    MapperCase(
        "an empty 503 body gives the reason phrase", 503, "", .server(status: 503, message: "Service Unavailable")),
    MapperCase(
        "a plain-text body gives its first line", 500, "worker crashed\nstack trace follows\n",
        .server(status: 500, message: "worker crashed")),
    MapperCase("an empty 401 body gives the reason phrase", 401, "  ", .unauthorized(message: "Unauthorized")),
]

@Suite("HTTP error mapping")
struct HTTPErrorMapperTests {
    @Test("a status maps to its ChatError", arguments: mapperCases)
    func statusMapsToError(_ testCase: MapperCase) {
        #expect(mapped(testCase.status, testCase.body) == testCase.expected)
    }

    @Test("404 with a model message is notFound with the clue that it names a model")
    func notFoundModelNamesModel() {
        let message = "The model `gpt-5x` does not exist or you do not have access to it."
        let error = mapped(404, openAIError(message, type: "invalid_request_error", code: "model_not_found"))
        #expect(error == .notFound(url: chatURL, message: message, clue: .messageNamesModel))
    }

    @Test(
        "404 with no API error at a URL without /v1/ has the clue that the URL lacks /v1",
        arguments: [
            ("<html><body><h1>404 Not Found</h1></body></html>", "text/html; charset=utf-8"),
            ("", "text/plain"),
            ("404 page not found", "text/plain; charset=utf-8"),
        ])
    func notFoundWithoutV1HasTheV1Clue(_ body: String, _ contentType: String) {
        let url = "http://localhost:11434/chat/completions"
        let error = mapped(404, body, headers: ["content-type": contentType], url: url)
        guard case .notFound(let errorURL, let message, let clue) = error else {
            Issue.record("expected notFound, got \(error)")
            return
        }
        #expect(errorURL == url)
        #expect(clue == .urlLacksV1)
        #expect(!message.contains("<html"))
    }

    @Test("404 with an HTML page at a URL with /v1/ has no clue")
    func notFoundWithV1HasNoClue() {
        let error = mapped(404, "<html>nope</html>", headers: ["content-type": "text/html"])
        guard case .notFound(_, let message, let clue) = error else {
            Issue.record("expected notFound, got \(error)")
            return
        }
        #expect(clue == .unknown)
        #expect(message.hasPrefix("Not Found"))
    }

    @Test("404 with an API error not about a model does not blame /v1, even without /v1/ in the URL")
    func notFoundAPIErrorDoesNotBlameV1() {
        let url = "http://host/api/chat/completions"
        let error = mapped(404, #"{"error":{"message":"Unknown request URL"}}"#, url: url)
        #expect(error == .notFound(url: url, message: "Unknown request URL", clue: .unknown))
    }

    @Test(
        "a 5xx HTML page is named by status, called an HTML page, and not shown",
        arguments: [(502, "Bad Gateway"), (504, "Gateway Timeout"), (500, "Internal Server Error")])
    func htmlPageIsNamedNotShown(_ status: Int, _ reason: String) {
        let error = mapped(status, htmlPage, headers: ["content-type": "text/html"])
        guard case .server(let errorStatus, let message) = error else {
            Issue.record("expected server, got \(error)")
            return
        }
        #expect(errorStatus == status)
        #expect(message.hasPrefix(reason))
        #expect(message.contains("HTML page"))
        #expect(!message.contains("<"))
        #expect(!message.contains("nginx"))
    }

    @Test("an HTML page without an HTML content type is still recognised by its first character")
    func htmlPageRecognisedWithoutContentType() {
        let error = mapped(502, "\n  " + htmlPage, headers: [:])
        guard case .server(_, let message) = error else {
            Issue.record("expected server, got \(error)")
            return
        }
        #expect(message.contains("HTML page"))
        #expect(!message.contains("<"))
    }

    @Test("a long plain-text body is shortened")
    func longPlainTextBodyIsShortened() {
        let error = mapped(500, String(repeating: "x", count: 5000), headers: ["content-type": "text/plain"])
        guard case .server(_, let message) = error else {
            Issue.record("expected server, got \(error)")
            return
        }
        #expect(message.count <= 201)
        #expect(message.hasSuffix("…"))
    }

    // MARK: 429

    @Test(
        "429 reads the wait from retry-after-ms, then retry-after",
        arguments: [
            (["retry-after": "7"], 7.0),
            (["retry-after-ms": "1500"], 1.5),
            (["retry-after": "20", "retry-after-ms": "250"], 0.25),
            (["retry-after": "0.5"], 0.5),
        ] as [([String: String], Double)])
    func rateLimitReadsRetryAfter(_ headers: [String: String], _ seconds: Double) {
        let error = mapped(
            429, openAIError("Rate limit reached for gpt-4o-mini", type: "requests", code: "rate_limit_exceeded"),
            headers: headers.merging(["content-type": "application/json"]) { old, _ in old })
        #expect(
            error
                == .rateLimited(
                    retryAfter: seconds, quotaExceeded: false, message: "Rate limit reached for gpt-4o-mini"))
    }

    @Test(
        "429 without a usable wait has no retryAfter",
        arguments: [[:], ["retry-after": "0"], ["retry-after": "soon"], ["retry-after-ms": "-5"]] as [[String: String]]
    )
    func rateLimitWithoutUsableWait(_ headers: [String: String]) {
        let error = mapped(429, #"{"error":{"message":"slow down"}}"#, headers: headers)
        #expect(error == .rateLimited(retryAfter: nil, quotaExceeded: false, message: "slow down"))
    }

    @Test("retry-after is found by any case of its name")
    func retryAfterIsCaseInsensitive() {
        let head = HTTPResponseHead(status: 429, headers: ["retry-after": "3"])
        #expect(head.header("Retry-After") == "3")
        #expect(HTTPErrorMapper.retryAfter(head) == 3)
    }

    @Test("429 with code insufficient_quota is quotaExceeded")
    func insufficientQuotaCodeIsQuotaExceeded() {
        let message = "You exceeded your current quota, please check your plan and billing details."
        let error = mapped(
            429, openAIError(message, type: "insufficient_quota", code: "insufficient_quota"),
            headers: ["retry-after": "1"])
        #expect(error == .rateLimited(retryAfter: 1, quotaExceeded: true, message: message))
    }

    @Test("429 with insufficient_quota only as the code is quotaExceeded")
    func insufficientQuotaCodeAloneIsQuotaExceeded() {
        let error = mapped(429, openAIError("out of credit", type: "requests", code: "insufficient_quota"))
        #expect(error == .rateLimited(retryAfter: nil, quotaExceeded: true, message: "out of credit"))
    }

    @Test("OpenRouter's numeric code decodes, and a 429 with it is a plain rate limit")
    func openRouterNumericCodeDecodes() throws {
        let body =
            #"{"error":{"message":"Rate limit exceeded: free-models-per-day","code":429,"metadata":{"headers":{}}}}"#
        let detail = try #require(try JSONReader.read(APIErrorDTO.self, from: body)?.summary())
        #expect(detail.message == "Rate limit exceeded: free-models-per-day")
        #expect(detail.code == "429")
        #expect(
            mapped(429, body)
                == .rateLimited(
                    retryAfter: nil, quotaExceeded: false, message: "Rate limit exceeded: free-models-per-day"))
    }

    @Test("a 402 from OpenRouter is a bad request with its message")
    func openRouterPaymentRequired() {
        let body = #"{"error":{"message":"Insufficient credits","code":402}}"#
        #expect(mapped(402, body) == .badRequest(status: 402, message: "Insufficient credits"))
    }

    @Test("a redirect says to use the new address")
    func redirectNamesLocation() {
        let error = mapped(301, "", headers: ["location": "https://api.example.com/v1/chat/completions"])
        guard case .malformedResponse(let message) = error else {
            Issue.record("expected malformedResponse, got \(error)")
            return
        }
        #expect(message.contains("https://api.example.com/v1/chat/completions"))
        #expect(message.contains("301"))
    }
}
