/// The context windows chat knows, in tokens (prompt and answer together), by model: chat's
/// own table, its entries found as `ModelNamePattern` says.
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

    /// The window of `model`, if an entry matches it.
    public func tokens(of model: String) -> Int? {
        ModelNamePattern.first(in: entries, matching: model, pattern: \.pattern)?.tokens
    }
}
