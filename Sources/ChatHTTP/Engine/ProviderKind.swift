/// Which provider's API a server speaks: what `ServerGPTRepository` chooses a provider by (the
/// `provider` setting names one).
public enum ProviderKind: String, Sendable, CaseIterable {
    /// OpenAI's chat completions, as OpenAI and the many servers compatible with it speak them.
    case openAI = "openai"
    /// Anthropic's Messages API (`POST /messages`), natively.
    case anthropic = "anthropic"
    /// OpenAI's Responses API (`POST /responses`): reasoning summaries, reasoning carried across
    /// tool calls; the keys and addresses of `openai`.
    case openAIResponses = "openai-responses"
}
