import ChatDomain
import ChatHTTP

/// `GPTRepository` for a chat server, in the API of its provider (`ServerConfiguration.provider`):
/// the engine (`RequestRunner`: the key, retries, diagnostics, errors, Server-Sent Events) over
/// that provider's requests and answers. The one place a provider is chosen.
public struct ServerGPTRepository: GPTRepository {
    private let runner: any GPTRepository
    private let connectAhead: @Sendable () -> Void

    /// A repository that reaches `server` through `client`.
    public init(server: ServerConfiguration, client: CurlHTTPClient) {
        self.init(server: server, transport: client)
    }

    init(server: ServerConfiguration, transport: any HTTPClient, readingExecutor: ConsumerExecutor = .shared) {
        switch server.provider {
        case .openAI:
            let runner = RequestRunner(
                server: server, client: transport, provider: OpenAIProvider(takesImages: server.takesImages),
                readingExecutor: readingExecutor)
            self.runner = runner
            connectAhead = { runner.preconnect() }
        case .openAIResponses:
            let runner = RequestRunner(
                server: server, client: transport,
                provider: ResponsesProvider(
                    reasoning: server.reasoning, takesImages: server.takesImages, webSearch: server.webSearch),
                readingExecutor: readingExecutor)
            self.runner = runner
            connectAhead = { runner.preconnect() }
        case .anthropic:
            var server = server
            server.keyPlacement = AnthropicProvider.keyPlacement
            let runner = RequestRunner(
                server: server, client: transport,
                provider: AnthropicProvider(
                    thinkingBudget: server.thinkingBudget, thinkingForm: server.thinkingForm,
                    reasoning: server.reasoning, cache: server.promptCaching, takesImages: server.takesImages,
                    webSearch: server.webSearch, webSearchMaxUses: server.webSearchMaxUses),
                readingExecutor: readingExecutor)
            self.runner = runner
            connectAhead = { runner.preconnect() }
        }
    }

    /// Makes the connection to the server in the background (an `https://` server: DNS, TCP,
    /// proxy, TLS), sending nothing, while the person types or the input is read, so the first
    /// request finds it ready. A failure is left for that request to report.
    public func preconnect() {
        connectAhead()
    }

    public func streamChat(_ request: ChatRequest) -> any AnswerStream {
        runner.streamChat(request)
    }

    public func listModels() async -> Result<[ModelInfo], ChatError> {
        await runner.listModels()
    }

    public func contextWindow(of model: String) async -> Int? {
        await runner.contextWindow(of: model)
    }
}
