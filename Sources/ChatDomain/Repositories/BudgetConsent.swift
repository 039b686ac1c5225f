/// Decides whether a run whose budget (`max_cost`) is spent goes on: asked before a request that
/// would go past it.
public protocol BudgetConsent: Sendable {
    /// A new budget, above `spent`, to go on with; nil to stop.
    func raise(spent: Double, limit: Double) async -> Double?
}
