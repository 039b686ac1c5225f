/// The sampling parameters a conversation sets, each with its value; a parameter it leaves out
/// leaves the server's default.
public struct SamplingValues: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// By the parameter's raw value. (Not a dictionary: hashing an enum brings a run-time
    /// conformance lookup the first time, on the way to the first request.)
    private var values = [SamplingValue?](repeating: nil, count: SamplingParameter.allCases.count)

    /// The values given.
    public init(_ values: [SamplingParameter: SamplingValue] = [:]) {
        for (parameter, value) in values { self[parameter] = value }
    }

    /// `[.temperature: .number(0.2), .maxTokens: .wholeNumber(256)]`.
    public init(dictionaryLiteral elements: (SamplingParameter, SamplingValue)...) {
        for (parameter, value) in elements { self[parameter] = value }
    }

    /// The value of `parameter`, nil when it is not set.
    public subscript(parameter: SamplingParameter) -> SamplingValue? {
        get { values[parameter.rawValue] }
        set { values[parameter.rawValue] = newValue }
    }

    /// Whether no parameter is set.
    public var isEmpty: Bool { values.allSatisfy { $0 == nil } }

    /// These values with each one `other` sets in place of this one's.
    public func overlaid(by other: SamplingValues) -> SamplingValues {
        var result = self
        for parameter in SamplingParameter.allCases {
            if let value = other[parameter] { result[parameter] = value }
        }
        return result
    }
}
