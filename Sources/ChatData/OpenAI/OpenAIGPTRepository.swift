import ChatDomain

/// `GPTRepository` for OpenAI-compatible servers: `POST /chat/completions` streamed as
/// Server-Sent Events (or answered whole), and the model list, sent by the engine
/// (`RequestRunner`) in OpenAI's terms (`OpenAIProvider`).
public struct OpenAIGPTRepository: GPTRepository {
    private let runner: RequestRunner<OpenAIProvider>
    /// A reader of `streamChat` that prefers it reads a token that comes after a pause on the
    /// thread it arrived on (see `ConsumerExecutor`).
    public let readingExecutor: (any TaskExecutor)?

    /// Creates a repository that reaches `server` through `client`.
    public init(server: ServerConfiguration, client: CurlHTTPClient) {
        self.init(server: server, transport: client)
    }

    init(
        server: ServerConfiguration, transport: any HTTPClient,
        readingExecutor: ConsumerExecutor = .shared
    ) {
        runner = RequestRunner(server: server, client: transport, provider: OpenAIProvider())
        self.readingExecutor = readingExecutor
    }

    public func streamChat(_ request: ChatRequest) -> AsyncThrowingStream<ChatEvent, any Error> {
        runner.streamChat(request)
    }

    public func listModels() async -> Result<[ModelInfo], ChatError> {
        await runner.listModels()
    }
}
