/// A block of the model's thinking as a provider that signs it (Anthropic) sent it, kept in the
/// answer so that it can be sent back unmodified: a tool loop with thinking needs the turn that
/// led to the calls sent back with its thinking first, signature and all. Its text is shown as
/// reasoning as it arrives; this is the whole block, for the provider only.
public enum ThinkingBlock: Sendable, Equatable {
    /// Thinking text, and the provider's signature over it.
    case signed(text: String, signature: String)
    /// Thinking the provider sent encrypted (`redacted_thinking`): its data, opaque.
    case redacted(data: String)
}
