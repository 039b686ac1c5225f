/// An amount of US dollars as a person reads it: `$` and at least three significant digits
/// (`$0.00600`, `$0.0512`, `$0.123`), cents from one dollar up (`$1.23`, `$12.30`).
public enum Dollars {
    public static func text(_ amount: Double) -> String {
        guard amount.isFinite else { return "$?" }
        let negative = amount < 0
        let value = abs(amount)
        // Decimals: 2 from a dollar up; below it, enough for three significant digits.
        var decimals = 2
        if value > 0 && value < 1 {
            var scaled = value
            var leadingZeros = 0
            while scaled < 0.1 && leadingZeros < 12 {
                scaled *= 10
                leadingZeros += 1
            }
            decimals = max(2, leadingZeros + 3)
        }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        // Past what a whole number holds exactly, the figure is beyond anyone's bill anyway.
        let units = min((value * scale).rounded(), 9.007_199_254_740_992e15)
        let digits = String(Int64(units))
        let padded = String(repeating: "0", count: max(0, decimals + 1 - digits.count)) + digits
        let whole = padded.dropLast(decimals)
        let fraction = padded.suffix(decimals)
        return (negative ? "-$" : "$") + whole + "." + fraction
    }

    /// An amount as a person types it back: digits and a point, no `$` (`0.5`, `12.25`).
    public static func plain(_ amount: Double) -> String {
        String(text(amount).drop { $0 == "$" || $0 == "-" })
    }

    /// The amount `text` says (`2`, `0.50`, `$1.5`); nil for anything else, or a negative one.
    public static func amount(_ text: String) -> Double? {
        var digits = text.trimmingCharacters()
        if digits.hasPrefix("$") { digits.removeFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            digits.filter({ $0 == "." }).count <= 1, let value = Double(digits), value.isFinite
        else { return nil }
        return value
    }
}
