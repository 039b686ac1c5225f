/// The context windows chat knows, in tokens (prompt and answer together), by model: chat's
/// own table, its entries found as `ModelNamePattern` says (a router's vendor prefix aside).
public struct ContextWindows: Sendable, Equatable {
    /// A pattern and the window of the models it matches.
    public struct Entry: Sendable, Equatable {
        public var pattern: String
        public var tokens: Int

        public init(_ pattern: String, _ tokens: Int) {
            self.pattern = pattern
            self.tokens = tokens
        }
    }

    public var entries: [Entry]

    public init(_ entries: [Entry]) {
        self.entries = entries
    }

    /// The window of `model`, if an entry matches it, or the name after a router's vendor
    /// prefix (OpenRouter's `anthropic/claude-haiku-4-5`).
    public func tokens(of model: String) -> Int? {
        if let entry = ModelNamePattern.first(in: entries, matching: model, pattern: \.pattern) { return entry.tokens }
        guard let slash = model.lastIndex(of: "/") else { return nil }
        let name = String(model[model.index(after: slash)...])
        return ModelNamePattern.first(in: entries, matching: name, pattern: \.pattern)?.tokens
    }
}
