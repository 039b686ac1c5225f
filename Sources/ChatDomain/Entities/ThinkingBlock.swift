/// A block of the model's reasoning as a provider sent it to be sent back (Anthropic's signed
/// thinking, OpenAI's encrypted reasoning items), kept in the answer so that it can go back
/// unmodified: a tool loop needs the turn that led to the calls sent back with its reasoning,
/// signature or encrypted content and all. Its text is shown as reasoning as it arrives; this is
/// the whole block, for the provider that made it only (another provider leaves it out).
public enum ThinkingBlock: Sendable, Equatable {
    /// Thinking text, and the provider's signature over it (Anthropic's `thinking`).
    case signed(text: String, signature: String)
    /// Thinking the provider sent encrypted (Anthropic's `redacted_thinking`): its data, opaque.
    case redacted(data: String)
    /// A reasoning item of OpenAI's Responses API: its summary's parts, and the encrypted
    /// reasoning (`encrypted_content`, opaque; empty when the server sent none).
    case encryptedReasoning(summary: [String], content: String)
}
