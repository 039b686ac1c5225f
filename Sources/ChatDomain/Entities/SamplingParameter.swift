/// A parameter a request may carry besides the model and the messages: sampling, and how hard a
/// reasoning model thinks. Each one a conversation sets travels with it (stored, saved, loaded);
/// one it does not set leaves the server's default.
public enum SamplingParameter: Int, CaseIterable, Sendable, Hashable {
    /// How random the answer is (0 to 2).
    case temperature
    /// Upper bound on answer tokens.
    case maxTokens
    /// Nucleus sampling: pick from the most likely tokens that make up this share of the
    /// probability (0 to 1).
    case topP
    /// Asks for the same answer to the same request, as far as the server can give it.
    case seed
    /// How hard a reasoning model thinks (`ReasoningEffort`).
    case effort
}
