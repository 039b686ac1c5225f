import ChatDomain

extension MessagesUsageDTO {
    /// These counts with each one `later` reports in place of this one's (`message_delta`
    /// reports the output tokens cumulatively, and may repeat the others).
    func updated(by later: MessagesUsageDTO) -> MessagesUsageDTO {
        MessagesUsageDTO(
            input_tokens: later.input_tokens ?? input_tokens, output_tokens: later.output_tokens ?? output_tokens,
            cache_creation_input_tokens: later.cache_creation_input_tokens ?? cache_creation_input_tokens,
            cache_read_input_tokens: later.cache_read_input_tokens ?? cache_read_input_tokens,
            server_tool_use: later.server_tool_use ?? server_tool_use)
    }

    /// The domain's usage, the prompt being the input tokens with those read from and written to
    /// the cache; nil when the server sent no counts.
    func toDomain() -> TokenUsage? {
        guard input_tokens != nil || output_tokens != nil else { return nil }
        let written = cache_creation_input_tokens
        let read = cache_read_input_tokens
        var usage = TokenUsage(
            promptTokens: (input_tokens ?? 0) + (written ?? 0) + (read ?? 0), completionTokens: output_tokens ?? 0,
            cacheReadTokens: read, cacheWriteTokens: written)
        usage.webSearches = server_tool_use?.web_search_requests
        return usage
    }
}
