import ChatDomain

/// `BudgetConsent` on the terminal tool calls are asked on (`/dev/tty`): a run whose budget is
/// spent asks whether to go on, with the budget doubled, another amount, or not at all.
public struct TerminalBudgetConsent: BudgetConsent {
    private let terminal: any ToolConsentTerminal
    private let style: TerminalStyle

    /// Asks on `terminal`, its question styled with `style`.
    public init(terminal: any ToolConsentTerminal, style: TerminalStyle) {
        self.terminal = terminal
        self.style = style
    }

    public func raise(spent: Double, limit: Double) async -> Double? {
        let doubled = max(limit * 2, spent + limit)
        let question =
            "\n"
            + style.bold("This run has spent \(Dollars.text(spent)) of its \(Dollars.text(limit)) budget.")
            + "\n[y]es, go on up to \(Dollars.text(doubled)) / [e]nter another budget / [n]o, stop here "
        switch await terminal.key(question, among: "yen") {
        case "y":
            return doubled
        case "e":
            guard let text = await terminal.edit(Dollars.plain(doubled)) else { return nil }
            guard let amount = Dollars.amount(text), amount > spent else {
                await terminal.say("not a budget above \(Dollars.text(spent)): stopped\n")
                return nil
            }
            return amount
        default:
            return nil
        }
    }
}
