import ChatDomain

/// The REPL prompt: the conversation's state at a glance — model, role, turns, size in tokens.
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
        } else if !conversation.messages.isEmpty {
            parts.append("~\(Self.compact(conversation.estimatedTokens)) tokens")
        }
        if attached > 0 { parts.append("+" + Counted.text(attached, "file")) }
        return style.dim(parts.joined(separator: " · ")) + " " + style.bold("›") + " "
    }

    /// The prompt inside a `"""` block.
    var continuation: String { style.dim("…") + " " }

    static func compact(_ count: Int) -> String {
        guard count >= 1000 else { return String(count) }
        let tenths = (count + 50) / 100
        return "\(tenths / 10).\(tenths % 10)k"
    }
}
