/// The prices chat knows, in the order they are looked up: the config's `prices` first, then
/// chat's own table. An entry's pattern is a model name, or a glob (`*` any run of characters,
/// `?` one); the first entry whose pattern matches a name gives its price. A name no entry
/// matches is tried once more without a trailing snapshot date (`-20251001`, `-2024-07-18`), so
/// a dated snapshot takes its model's price while a sibling priced otherwise (`gpt-4o-mini` to
/// `gpt-4o`) never does.
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
        if let price = entries.first(where: { Self.matches(model, $0.pattern) })?.price { return price }
        guard let undated = Self.withoutDate(model) else { return nil }
        return entries.first { Self.matches(undated, $0.pattern) }?.price
    }

    /// `name` without a trailing `-YYYYMMDD` or `-YYYY-MM-DD`; nil when it has none.
    static func withoutDate(_ name: String) -> String? {
        let bytes = Array(name.utf8)
        func digits(_ range: Range<Int>) -> Bool {
            range.allSatisfy { bytes[$0] >= UInt8(ascii: "0") && bytes[$0] <= UInt8(ascii: "9") }
        }
        let n = bytes.count
        let dash = UInt8(ascii: "-")
        if n > 11, bytes[n - 11] == dash, bytes[n - 6] == dash, bytes[n - 3] == dash, digits(n - 10..<n - 6),
            digits(n - 5..<n - 3), digits(n - 2..<n)
        {
            return String(decoding: bytes[..<(n - 11)], as: UTF8.self)
        }
        if n > 9, bytes[n - 9] == dash, digits(n - 8..<n) {
            return String(decoding: bytes[..<(n - 9)], as: UTF8.self)
        }
        return nil
    }

    /// The price for an answer: by the model the server reported, then the one asked for.
    public func price(reported: String?, asked: String) -> ModelPrice? {
        reported.flatMap(price(of:)) ?? price(of: asked)
    }

    /// What `usage` cost, asked of `model`; nil when no price is known (never 0).
    public func cost(of usage: TokenUsage, asked model: String) -> Double? {
        price(reported: usage.model, asked: model)?.cost(of: usage)
    }

    /// Whether `name` matches the glob `pattern`.
    static func matches(_ name: String, _ pattern: String) -> Bool {
        let name = Array(name.utf8)
        let pattern = Array(pattern.utf8)
        var (n, p) = (0, 0)
        // The last `*` seen, and where in the name its run now ends.
        var star: (pattern: Int, name: Int)?
        while n < name.count {
            if p < pattern.count, pattern[p] == UInt8(ascii: "?") || pattern[p] == name[n] {
                n += 1
                p += 1
            } else if p < pattern.count, pattern[p] == UInt8(ascii: "*") {
                star = (p, n)
                p += 1
            } else if let last = star {
                star = (last.pattern, last.name + 1)
                (p, n) = (last.pattern + 1, last.name + 1)
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.count
    }
}
