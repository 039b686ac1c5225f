import ChatDomain
import ChatTestSupport
import Synchronization
import Testing

@testable import ChatHTTP
@testable import ChatPresentation

/// A provider unlike OpenAI's, to show that the engine serves any: every event's data is text,
/// an `end` event ends the answer, an error body is `ERR: message`, and a page of models is
/// `models a b` with, after a newline, `next CURSOR` when there are more.
private struct PlainTextProvider: ChatProvider {
    let chatPath = "/plain"

    struct Decoder: StreamEventDecoder {
        private(set) var isDone = false
        var isComplete: Bool { isDone }

        mutating func decode(_ event: RawSSEEvent, _ emit: (ChatEvent) -> Void) throws(ChatError) {
            if event.type == "end" {
                isDone = true
                return
            }
            emit(.text(String(decoding: event.data, as: UTF8.self)))
        }
    }

    /// The variants that worked after a fallback.
    let fallbacks = Lines()

    func variant(for request: ChatRequest) -> String { "fancy" }

    func chatRequest(for request: ChatRequest, variant: String) throws(ChatError) -> ProviderRequest {
        ProviderRequest(
            method: "POST", path: chatPath, accept: "text/event-stream", body: Array(variant.utf8),
            headers: [("Plain-Version", "1")])
    }

    func fallback(from variant: String, after error: ChatError, detail: ServerErrorDetail?) -> String? {
        guard case .badRequest = error, variant == "fancy" else { return nil }
        return "simple"
    }

    func fallbackWorked(_ variant: String) {
        fallbacks.add(variant)
    }

    func makeStreamDecoder() -> Decoder { Decoder() }
    var sampleEvents: [UInt8] { Array("data: a\n\n".utf8) }

    func decodeWhole(_ body: [UInt8], _ emit: (ChatEvent) -> Void) throws(ChatError) {
        emit(.text(String(decoding: body, as: UTF8.self)))
    }

    func errorDetail(in body: [UInt8]) -> ServerErrorDetail? {
        let text = String(decoding: body, as: UTF8.self)
        guard text.hasPrefix("ERR: ") else { return nil }
        return ServerErrorDetail(message: String(text.dropFirst(5)), quotaExceeded: text.contains("quota"))
    }

    func modelsRequest(after cursor: String?) -> ProviderRequest {
        ProviderRequest(method: "GET", path: "/models" + (cursor.map { "?after=" + $0 } ?? ""), accept: "text/plain")
    }

    func modelPage(in body: [UInt8]) -> ModelPage? {
        let lines = String(decoding: body, as: UTF8.self).split(separator: "\n").map { $0.split(separator: " ") }
        guard let ids = lines.first, ids.first == "models" else { return nil }
        let next = lines.dropFirst().first.flatMap { $0.first == "next" ? $0.last.map(String.init) : nil }
        return ModelPage(models: ids.dropFirst().map { ModelInfo(id: String($0)) }, nextCursor: next)
    }
}

/// Lines written from any thread.
private final class Lines: Sendable {
    private let lines = Mutex<[String]>([])
    func add(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

/// The engine with a provider of its own: key, headers, retries, fallbacks, diagnostics and
/// error mapping are the engine's, whatever the provider.
@Suite(.onOwnThread) struct RequestRunnerTests {
    private static let answer: [ServerStep] = [
        .head(status: 200, headers: [("Content-Type", "text/event-stream")], chunked: true),
        .text("data: Hel\n\ndata: lo\n\nevent: end\ndata: x\n\n"), .end,
    ]

    private static func runner(
        _ server: LoopbackServer, key: APIKeyPlacement = .bearer, retries: Int = 0,
        diagnostics: (@Sendable (String) -> Void)? = nil
    ) -> RequestRunner<PlainTextProvider> {
        RequestRunner(
            server: ServerConfiguration(
                baseURL: server.baseURL, apiKey: "SECRET", keyPlacement: key, headers: [("X-Team", "blue")],
                connectTimeout: 5, idleTimeout: 10, proxy: "",
                retry: RetryPolicy(maxRetries: retries, initialDelay: 0.01), diagnostics: diagnostics),
            client: CurlHTTPClient(), provider: PlainTextProvider())
    }

    private static func request() -> ChatRequest {
        ChatRequest(messages: [ChatMessage(role: .user, content: "hi")], settings: ChatSettings(model: "m"))
    }

    @Test func providerEventsArriveAndTheEngineWritesTheKeyAndHeaders() async throws {
        let server = try LoopbackServer { _, _ in Self.answer }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await ServerGPTRepositoryTests.collect(Self.runner(server).streamChat(Self.request()))
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.events == [.text("Hello")])
        let recorded = try #require(server.requests.first)
        #expect(recorded.path == "/v1/plain")
        #expect(recorded.header("Authorization") == "Bearer SECRET")
        #expect(recorded.header("Plain-Version") == "1")
        #expect(recorded.header("X-Team") == "blue")
        #expect(recorded.header("Content-Type") == "application/json")
        #expect(recorded.bodyText == "fancy")
    }

    @Test func aKeyInAHeaderOfItsOwnIsSentThereAndRedactedInDiagnostics() async throws {
        let server = try LoopbackServer { _, _ in Self.answer }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let lines = Lines()
        let runner = Self.runner(server, key: .header("X-Subscription")) { lines.add($0) }
        let result = await ServerGPTRepositoryTests.collect(runner.streamChat(Self.request()))
        #expect(result.error == nil, "\(String(describing: result.error))")
        let recorded = try #require(server.requests.first)
        #expect(recorded.header("X-Subscription") == "SECRET")
        #expect(recorded.header("Authorization") == nil)
        let log = lines.all.joined(separator: "\n")
        #expect(log.contains("> POST \(server.baseURL)/plain"))
        #expect(log.contains("> X-Subscription: [redacted]"))
        #expect(log.contains("> X-Team: blue"))
        #expect(!log.contains("SECRET"))
    }

    @Test func aRetryableStatusIsSentAgainWithTheProvidersMessageInTheNote() async throws {
        let server = try LoopbackServer { _, index in
            index == 0
                ? ServerStep.json(status: 503, "ERR: busy", headers: [("Content-Type", "text/plain")]) : Self.answer
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await ServerGPTRepositoryTests.collect(Self.runner(server, retries: 1).streamChat(Self.request()))
        #expect(result.error == nil, "\(String(describing: result.error))")
        guard case .retrying(1, 1, _, let reason)? = result.events.first else {
            Issue.record("expected a retry first, got \(result.events)")
            return
        }
        #expect(reason == "503 busy")
        #expect(result.events.dropFirst() == [.text("Hello")])
        #expect(server.requests.count == 2)
    }

    @Test func theProvidersErrorReaderGivesTheMessageAndTheQuota() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.json(status: 429, "ERR: out of quota", headers: [("Content-Type", "text/plain")])
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await ServerGPTRepositoryTests.collect(Self.runner(server, retries: 2).streamChat(Self.request()))
        #expect(
            result.error as? ChatError == .rateLimited(retryAfter: nil, quotaExceeded: true, message: "out of quota"))
        #expect(server.requests.count == 1)
    }

    @Test func theProvidersFallbackIsSentAtOnceAndReportedWhenItWorks() async throws {
        let server = try LoopbackServer { request, _ in
            request.bodyText == "fancy"
                ? ServerStep.json(status: 400, "ERR: no fancy here", headers: [("Content-Type", "text/plain")])
                : Self.answer
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let runner = Self.runner(server)
        let result = await ServerGPTRepositoryTests.collect(runner.streamChat(Self.request()))
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.events == [.text("Hello")])
        #expect(server.requests.map(\.bodyText) == ["fancy", "simple"])
        #expect(runner.provider.fallbacks.all == ["simple"])
    }

    @Test func fetchReturnsTheBodyOrTheMappedError() async throws {
        let server = try LoopbackServer { _, index in
            index == 0
                ? ServerStep.json(status: 200, "the body")
                : ServerStep.json(status: 401, "ERR: who are you", headers: [("Content-Type", "text/plain")])
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let runner = Self.runner(server)
        let request = ProviderRequest(method: "GET", path: "/things", accept: "application/json")
        #expect(await runner.fetch(request).map { String(decoding: $0, as: UTF8.self) } == .success("the body"))
        #expect(await runner.fetch(request) == .failure(.unauthorized(message: "who are you")))
        #expect(server.requests.first?.path == "/v1/things")
    }

    @Test func theModelsAreReadPageByPageUntilTheLast() async throws {
        let server = try LoopbackServer { request, _ in
            let body =
                switch request.path {
                case "/v1/models": "models a b\nnext p2"
                case "/v1/models?after=p2": "models c\nnext p3"
                default: "models d"
                }
            return ServerStep.json(status: 200, body, headers: [("Content-Type", "text/plain")])
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let models = await Self.runner(server).listModels()
        #expect(models == .success(["a", "b", "c", "d"].map { ModelInfo(id: $0) }))
        #expect(server.requests.map(\.path) == ["/v1/models", "/v1/models?after=p2", "/v1/models?after=p3"])
    }

    @Test func aPageThatNamesAnEarlierOneEndsTheList() async throws {
        let server = try LoopbackServer { request, _ in
            let body = request.path == "/v1/models" ? "models a\nnext p2" : "models b\nnext p2"
            return ServerStep.json(status: 200, body, headers: [("Content-Type", "text/plain")])
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        #expect(await Self.runner(server).listModels() == .success([ModelInfo(id: "a"), ModelInfo(id: "b")]))
        #expect(server.requests.count == 2)
    }

    @Test func aFailedPageFailsTheListAndABodyThatIsNoListSaysSo() async throws {
        let server = try LoopbackServer { request, _ in
            request.path == "/v1/models"
                ? ServerStep.json(status: 200, "models a\nnext p2", headers: [("Content-Type", "text/plain")])
                : ServerStep.json(status: 401, "ERR: who are you", headers: [("Content-Type", "text/plain")])
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        #expect(await Self.runner(server).listModels() == .failure(.unauthorized(message: "who are you")))
        let noList = try LoopbackServer { _, _ in
            ServerStep.json(status: 200, "nothing here", headers: [("Content-Type", "text/plain")])
        }
        defer { LoopbackTestHelpers.stopInBackground(noList) }
        #expect(
            await Self.runner(noList).listModels()
                == .failure(.malformedResponse("GET \(noList.baseURL)/models did not answer with a model list")))
    }
}
