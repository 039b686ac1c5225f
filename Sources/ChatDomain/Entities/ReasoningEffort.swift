/// How hard a model that reasons should think before it answers (`--effort`), in one scale for
/// every provider; each provider maps it to what its API takes.
public enum ReasoningEffort: String, CaseIterable, Sendable, Equatable, Comparable {
    /// No reasoning asked for.
    case none
    case minimal
    case low
    case medium
    case high
    case xhigh
    /// As much as the model can.
    case max

    public static func < (a: ReasoningEffort, b: ReasoningEffort) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
