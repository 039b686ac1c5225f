/// Every setting, decided: what the composition root wires the program from.
public struct ResolvedSettings: Sendable {
    /// The server to talk to, with its key.
    public var server: ServerConfiguration
    /// The model to ask.
    public var model: String
    /// The system prompt, if any.
    public var systemPrompt: String?
    /// Sampling temperature, if set.
    public var temperature: Double?
    /// Answer token limit, if set.
    public var maxTokens: Int?
    /// Whether to stream answers.
    public var stream: Bool
    /// The profile in use, if any.
    public var profile: String?
    /// Whether conversations are stored in the history.
    public var history: Bool
    /// The most tokens a request may carry; older turns are left out beyond it.
    public var maxContextTokens: Int?
    /// Things worth telling the person on stderr, e.g. a config file others can read.
    public var warnings: [String]
}
