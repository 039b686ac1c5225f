/// The value of a `SamplingParameter`: a number, or a whole number for a parameter that counts.
public enum SamplingValue: Sendable, Equatable {
    case number(Double)
    case wholeNumber(Int)

    /// The value as a number, whole or not.
    public var number: Double {
        switch self {
        case .number(let value): value
        case .wholeNumber(let value): Double(value)
        }
    }

    /// The whole number, if this is one.
    public var wholeNumber: Int? {
        if case .wholeNumber(let value) = self { return value }
        return nil
    }
}
