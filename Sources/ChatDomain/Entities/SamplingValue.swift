/// The value of a `SamplingParameter`: a number, a whole number for a parameter that counts, or
/// a reasoning effort.
public enum SamplingValue: Sendable, Equatable {
    case number(Double)
    case wholeNumber(Int)
    case effort(ReasoningEffort)

    /// The value as a number, whole or not; nil for an effort.
    public var number: Double? {
        switch self {
        case .number(let value): value
        case .wholeNumber(let value): Double(value)
        case .effort: nil
        }
    }

    /// The whole number, if this is one.
    public var wholeNumber: Int? {
        if case .wholeNumber(let value) = self { return value }
        return nil
    }

    /// The effort, if this is one.
    public var effort: ReasoningEffort? {
        if case .effort(let value) = self { return value }
        return nil
    }
}
