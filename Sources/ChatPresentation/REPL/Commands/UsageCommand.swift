import ChatDomain

/// `/usage`: tokens per turn and in total, as the server reported them.
struct UsageCommand: SlashCommand {
    let names = ["usage"]
    let usage = "/usage"
    let summary = "tokens per turn and in total"

    func run(_ argument: String?, in context: REPLContext) async -> SlashCommandResult {
        var lines: [String] = []
        var total = 0
        var turn = 0
        for message in context.conversation.messages where message.role == .assistant {
            turn += 1
            guard let usage = message.usage else { continue }
            total += usage.totalTokens
            lines.append(
                "turn \(turn): \(usage.promptTokens) prompt + \(usage.completionTokens) completion"
                    + Self.reasoningText(usage) + " = \(usage.totalTokens)" + Self.cacheText(usage))
        }
        guard !lines.isEmpty else {
            context.note("no usage reported yet (some servers send none)")
            return .proceed
        }
        lines.append("total: \(total) tokens over \(Counted.text(lines.count, "turn"))")
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
