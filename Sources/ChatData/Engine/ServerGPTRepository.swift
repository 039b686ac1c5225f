import ChatDomain

/// `GPTRepository` for a chat server, in the API of its provider (`ServerConfiguration.provider`):
/// the engine (`RequestRunner`: the key, retries, diagnostics, errors, Server-Sent Events) over
/// that provider's requests and answers. The one place a provider is chosen.
public struct ServerGPTRepository: GPTRepository {
    private let runner: any GPTRepository

    /// A repository that reaches `server` through `client`.
    public init(server: ServerConfiguration, client: CurlHTTPClient) {
        self.init(server: server, transport: client)
    }

    init(server: ServerConfiguration, transport: any HTTPClient, readingExecutor: ConsumerExecutor = .shared) {
        switch server.provider {
        case .openAI:
            runner = RequestRunner(
                server: server, client: transport, provider: OpenAIProvider(), readingExecutor: readingExecutor)
        case .anthropic:
            var server = server
            server.keyPlacement = AnthropicProvider.keyPlacement
            runner = RequestRunner(
                server: server, client: transport,
                provider: AnthropicProvider(thinkingBudget: server.thinkingBudget, cache: server.promptCaching),
                readingExecutor: readingExecutor)
        }
    }

    public func streamChat(_ request: ChatRequest) -> any AnswerStream {
        runner.streamChat(request)
    }

    public func listModels() async -> Result<[ModelInfo], ChatError> {
        await runner.listModels()
    }
}
