import ChatDomain

/// `/history`: the conversation, both sides, failed and interrupted messages marked, the
/// person's questions numbered (for `/edit N` and `/fork N`).
struct HistoryCommand: SlashCommand {
    let names = ["history"]
    let usage = "/history"
    let summary = "show the conversation, both sides"

    func run(_ argument: String?, in context: REPLContext) async -> SlashCommandResult {
        let conversation = context.conversation
        let style = context.parts.outputStyle
        if let system = conversation.systemPrompt, !system.isEmpty {
            context.say(style.dim("system: ") + system + "\n")
        }
        guard !conversation.messages.isEmpty else {
            context.note("no messages yet")
            return .proceed
        }
        var question = 0
        let names = ToolRoundText.names(in: conversation.messages)
        for message in conversation.messages {
            // A round of tool calls: a line for each result (`--show` shows them whole).
            guard message.role != .tool else {
                for result in message.toolResults {
                    let name = names[result.callID].map(ToolRoundText.describe) ?? "an unknown call"
                    let text = ServerText.line(result.text, limit: 100)
                    context.say(style.dim("tool result (\(name))\(result.isError ? ", error" : ""): \(text)") + "\n")
                }
                continue
            }
            if message.role == .user { question += 1 }
            let label = message.role == .user ? "you [\(question)]: " : "assistant: "
            let mark: String
            switch message.state {
            case .complete: mark = ""
            case .interrupted: mark = " [interrupted]"
            case .failed: mark = " [failed: not sent again unless /retry]"
            }
            context.say(style.bold(label) + message.content + style.dim(mark) + "\n")
            for source in AnswerSources(message.citations).lines { context.say(style.dim(source) + "\n") }
            for image in message.images { context.say(style.dim(HistoryPresenter.describe(image)) + "\n") }
            for call in message.toolCalls {
                context.say(style.dim("tool call: " + ToolRoundText.describe(call.name)) + "\n")
            }
        }
        return .proceed
    }
}
