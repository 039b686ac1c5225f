/// What a run's answers cost and what it may spend: the prices chat knows, the run's spending
/// and budget, and who decides whether to go past the budget (none: the run stops there).
public struct RunCosts: Sendable {
    public var prices: PriceBook
    public let spending: RunSpending
    public var consent: (any BudgetConsent)?

    public init(prices: PriceBook, spending: RunSpending, consent: (any BudgetConsent)? = nil) {
        self.prices = prices
        self.spending = spending
        self.consent = consent
    }

    /// Whether a request may be sent: yes while the budget is not spent, or once the consent
    /// raised it; else what was spent against what limit.
    func mayAsk() async -> (spent: Double, limit: Double)? {
        guard let reached = spending.reached else { return nil }
        if let raised = await consent?.raise(spent: reached.spent, limit: reached.limit), raised > reached.spent {
            spending.raise(to: raised)
            return nil
        }
        return reached
    }
}
