import ChatDomain

extension UsageDTO {
    /// The domain's usage, or nil when the server sent no counts.
    func toDomain() -> TokenUsage? {
        guard prompt_tokens != nil || completion_tokens != nil else { return nil }
        return TokenUsage(
            promptTokens: prompt_tokens ?? 0,
            completionTokens: completion_tokens ?? 0,
            totalTokens: total_tokens,
            cacheReadTokens: prompt_tokens_details?.cached_tokens,
            cacheWriteTokens: prompt_tokens_details?.cache_write_tokens,
            reasoningTokens: completion_tokens_details?.reasoning_tokens
        )
    }
}
