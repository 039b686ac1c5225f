/// The knobs a request carries besides the messages.
public struct ChatSettings: Sendable, Equatable {
    /// The model name as the server knows it.
    public var model: String
    /// The sampling parameters set; one not set leaves the server's default.
    public var sampling: SamplingValues
    /// Whether to stream the answer as it is generated.
    public var stream: Bool
    /// The most tokens a request may carry (estimated); the oldest turns after the system prompt
    /// are left out of a longer one. Nil: no limit.
    public var maxContextTokens: Int?
    /// Whether a conversation nearing the context window (`maxContextTokens`, else the model's
    /// known window) has its oldest turns summarised (`Compaction`); false leaves them out of the
    /// request instead, as `maxContextTokens` says.
    public var autoCompact: Bool
    /// The JSON Schema answers must match (`--schema`); nil for answers in any form.
    public var responseSchema: ResponseSchema?
    /// Which provider's API answers, as the Data layer names it (`anthropic`); nil for the
    /// default one (OpenAI's, the only one before there were others). Stored with each answer;
    /// not a conversation's own: `overlaid(by:)` keeps this one's.
    public var provider: String?

    /// Creates settings.
    public init(
        model: String, sampling: SamplingValues = [:], stream: Bool = true, maxContextTokens: Int? = nil,
        responseSchema: ResponseSchema? = nil, provider: String? = nil, autoCompact: Bool = true
    ) {
        self.autoCompact = autoCompact
        self.model = model
        self.sampling = sampling
        self.stream = stream
        self.maxContextTokens = maxContextTokens
        self.responseSchema = responseSchema
        self.provider = provider
    }

    /// These settings with the conversation's own ones that `other` has: its model when not
    /// empty, each sampling value it sets, and its response schema if it has one. How answers
    /// are fetched (`stream`, `maxContextTokens`, `autoCompact`, `provider`) is not a conversation's own and
    /// stays as it is here.
    public func overlaid(by other: ChatSettings) -> ChatSettings {
        var result = self
        if !other.model.isEmpty { result.model = other.model }
        result.sampling = sampling.overlaid(by: other.sampling)
        if let schema = other.responseSchema { result.responseSchema = schema }
        return result
    }
}
