/// What `OpenAIProvider` chooses per request and may change after a failure.
struct OpenAIRequestVariant: Sendable, Equatable {
    /// Ask a streaming server for a usage chunk (`stream_options.include_usage`).
    var includeUsage: Bool
}
