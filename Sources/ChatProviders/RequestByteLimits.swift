/// The largest request each API documents taking, for `ChatProvider.requestByteLimit`.
/// Anthropic's "PDF support" page: at most 32 MB a request (and 100 pages). OpenAI's PDF file
/// inputs guide: at most 32 MB of file content in one request, across its files. Both are
/// counted here as 32,000,000 bytes of request body, which errs on the side of refusing.
enum RequestByteLimits {
    static let anthropic = 32_000_000
    static let openAI = 32_000_000
}

extension AnthropicProvider {
    var requestByteLimit: Int? { RequestByteLimits.anthropic }
}

extension OpenAIProvider {
    var requestByteLimit: Int? { RequestByteLimits.openAI }
}

extension ResponsesProvider {
    var requestByteLimit: Int? { RequestByteLimits.openAI }
}
