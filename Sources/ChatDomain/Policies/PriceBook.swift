/// The prices chat knows, in the order they are looked up: the config's `prices` first, then
/// chat's own table; a model's entry is found as `ModelNamePattern` says (a name or a glob, then
/// the name without its snapshot date).
public struct PriceBook: Sendable, Equatable {
    /// A pattern and the price of the models it matches.
    public struct Entry: Sendable, Equatable {
        public var pattern: String
        public var price: ModelPrice

        public init(_ pattern: String, _ price: ModelPrice) {
            self.pattern = pattern
            self.price = price
        }
    }

    public var entries: [Entry]

    public init(_ entries: [Entry]) {
        self.entries = entries
    }

    /// The price of `model`, if an entry matches it or its name without a snapshot date.
    public func price(of model: String) -> ModelPrice? {
        ModelNamePattern.first(in: entries, matching: model, pattern: \.pattern)?.price
    }

    /// The price for an answer: by the model the server reported, then the one asked for.
    public func price(reported: String?, asked: String) -> ModelPrice? {
        reported.flatMap(price(of:)) ?? price(of: asked)
    }

    /// What `usage` cost, asked of `model`; nil when no price is known (never 0).
    public func cost(of usage: TokenUsage, asked model: String) -> Double? {
        price(reported: usage.model, asked: model)?.cost(of: usage)
    }
}
