import ChatDomain

/// The REPL prompt: the conversation's state at a glance — model, role, turns, size in tokens,
/// what the prompt cache did for the last request when the server said it did anything, and
/// what the conversation's answers cost when chat knows.
struct PromptFormatter {
    var style: TerminalStyle

    func prompt(for conversation: Conversation, role: String? = nil, attached: Int = 0, tools: [String] = [])
        -> String
    {
        var parts = [conversation.settings.model]
        if let role { parts.append(role) }
        if !tools.isEmpty { parts.append("tools: " + tools.joined(separator: ",")) }
        let turns = conversation.turnCount
        parts.append(Counted.text(turns, "turn"))
        if let usage = conversation.lastUsage {
            parts.append("\(Self.compact(usage.totalTokens)) tokens")
            if let cache = Self.cacheText(usage) { parts.append(cache) }
        } else if !conversation.messages.isEmpty {
            parts.append("~\(Self.compact(conversation.estimatedTokens)) tokens")
        }
        let costs = conversation.messages.compactMap { $0.role == .assistant ? $0.usage?.costUSD : nil }
        if !costs.isEmpty { parts.append(Dollars.text(costs.reduce(0, +))) }
        if attached > 0 { parts.append("+" + Counted.text(attached, "file")) }
        return style.dim(parts.joined(separator: " · ")) + " " + style.bold("›") + " "
    }

    /// The prompt inside a `"""` block.
    var continuation: String { style.dim("…") + " " }

    /// `cache 3.0k read, 200 written`, leaving out what was none; nil when neither was any.
    static func cacheText(_ usage: TokenUsage) -> String? {
        let pieces = [(usage.cacheReadTokens, "read"), (usage.cacheWriteTokens, "written")].compactMap { count, what in
            count.flatMap { $0 > 0 ? "\(compact($0)) \(what)" : nil }
        }
        return pieces.isEmpty ? nil : "cache " + pieces.joined(separator: ", ")
    }

    static func compact(_ count: Int) -> String {
        guard count >= 1000 else { return String(count) }
        let tenths = (count + 50) / 100
        return "\(tenths / 10).\(tenths % 10)k"
    }
}
