import ChatDomain

extension ThinkingBlock {
    /// What another provider is sent of this block, as text: a signed block's thinking, a
    /// reasoning item's summary; nil for what is opaque or empty (nothing of it is sent).
    var textForAnotherProvider: String? {
        switch self {
        case .signed(let text, _): text.isEmpty ? nil : "[thinking: \(text)]"
        case .encryptedReasoning(let summary, _):
            summary.isEmpty ? nil : "[thinking: \(summary.joined(separator: "\n\n"))]"
        case .redacted: nil
        }
    }
}
