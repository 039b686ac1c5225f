import ChatDomain

/// The config's `prices`: by model name or glob, what a model costs in US dollars per million
/// tokens (`input`, `output`, `cache_read`, `cache_write`) and per thousand web searches
/// (`web_search`); `input` and `output` are needed. They come before chat's own table.
enum ConfigPrices {
    /// The keys a price holds.
    static let keys = ["input", "output", "cache_read", "cache_write", "web_search"]
    /// The most a price may be: a million dollars per million tokens.
    static let range = 0.0...1_000_000.0

    /// The entries of `value` (nil: none), in the order of their names; an issue names the key.
    static func entries(_ value: JSONValue?) throws(ConfigIssue) -> [PriceBook.Entry] {
        guard let value else { return [] }
        guard case .object(let models) = value else {
            throw ConfigIssue(key: "prices", problem: .wrongType(expected: .objectOfPrices, got: value.kind))
        }
        var entries: [PriceBook.Entry] = []
        for (model, price) in models.sorted(by: { $0.key < $1.key }) {
            entries.append(PriceBook.Entry(model, try self.price(price, key: "prices.\(model)")))
        }
        // A name without a glob before the globs, so an exact entry wins over a pattern.
        return entries.filter { !$0.pattern.contains("*") && !$0.pattern.contains("?") }
            + entries.filter { $0.pattern.contains("*") || $0.pattern.contains("?") }
    }

    private static func price(_ value: JSONValue, key: String) throws(ConfigIssue) -> ModelPrice {
        guard case .object(let fields) = value else {
            throw ConfigIssue(key: key, problem: .wrongType(expected: .object, got: value.kind))
        }
        for name in fields.keys.sorted() where !keys.contains(name) {
            throw ConfigIssue(
                key: "\(key).\(name)", problem: .unknownKey(nearest: NearestName.to(name, among: keys), known: keys))
        }
        var numbers: [String: Double] = [:]
        for (name, field) in fields {
            guard let number = field.number else {
                throw ConfigIssue(key: "\(key).\(name)", problem: .wrongType(expected: .number, got: field.kind))
            }
            guard range.contains(number) else {
                throw ConfigIssue(key: "\(key).\(name)", problem: .numberOutOfRange(range, got: number))
            }
            numbers[name] = number
        }
        guard let input = numbers["input"], let output = numbers["output"] else {
            throw ConfigIssue(key: key, problem: .missingKeys(["input", "output"].filter { numbers[$0] == nil }))
        }
        return ModelPrice(
            input: input, output: output, cacheRead: numbers["cache_read"], cacheWrite: numbers["cache_write"],
            webSearch: numbers["web_search"])
    }
}
