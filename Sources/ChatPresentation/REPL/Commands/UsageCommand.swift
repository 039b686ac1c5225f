import ChatDomain

/// `/usage`: tokens per turn and in total, as the server reported them, and what they cost
/// where chat knows the model's price: each answer, the conversation, the session.
struct UsageCommand: SlashCommand {
    let names = ["usage"]
    let usage = "/usage"
    let summary = "tokens and cost per turn, in total, and this session's"

    func run(_ argument: String?, in context: REPLContext) async -> SlashCommandResult {
        let usages = context.conversation.messages.filter { $0.role == .assistant }.map(\.usage)
        // Costs are said once one is known; until then they would all read "unknown".
        let costed = usages.contains { $0?.costUSD != nil }
        var lines: [String] = []
        var total = 0
        var cost = 0.0
        var unknown = 0
        for (index, usage) in usages.enumerated() {
            guard let usage else { continue }
            total += usage.totalTokens
            var line =
                "turn \(index + 1): \(usage.promptTokens) prompt + \(usage.completionTokens) completion"
                + Self.reasoningText(usage) + " = \(usage.totalTokens)" + Self.cacheText(usage)
            if costed {
                if let answer = usage.costUSD {
                    cost += answer
                    line += " · " + Dollars.text(answer)
                } else {
                    unknown += 1
                    line += " · cost unknown"
                }
            }
            lines.append(line)
        }
        guard !lines.isEmpty else {
            context.note("no usage reported yet (some servers send none)")
            return .proceed
        }
        var totalLine = "total: \(total) tokens over \(Counted.text(lines.count, "turn"))"
        if costed {
            totalLine += " · " + Dollars.text(cost)
            if unknown > 0 { totalLine += " and \(Counted.text(unknown, "turn")) of unknown cost" }
        }
        lines.append(totalLine)
        if let spending = context.parts.spending, spending.spent > 0 || spending.limit != nil {
            lines.append(
                "this session: " + Dollars.text(spending.spent)
                    + (spending.limit.map { " of a \(Dollars.text($0)) budget" } ?? "")
                    + (spending.hasUnknownCosts ? " (some answers' costs unknown)" : ""))
        }
        context.say(lines.joined(separator: "\n") + "\n")
        return .proceed
    }

    /// Of the completion, the tokens spent reasoning, when the server said some were:
    /// ` (120 reasoning)` (a model that does not reason is reported 0).
    static func reasoningText(_ usage: TokenUsage) -> String {
        guard let tokens = usage.reasoningTokens, tokens > 0 else { return "" }
        return " (\(tokens) reasoning)"
    }

    /// What the prompt cache did, when the server said: ` (cache: 3000 read, 200 written)`.
    static func cacheText(_ usage: TokenUsage) -> String {
        let parts = [usage.cacheReadTokens.map { "\($0) read" }, usage.cacheWriteTokens.map { "\($0) written" }]
            .compactMap { $0 }
        return parts.isEmpty ? "" : " (cache: \(parts.joined(separator: ", ")))"
    }
}
