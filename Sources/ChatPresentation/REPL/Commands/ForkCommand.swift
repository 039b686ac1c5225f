import ChatDomain

/// `/fork [N]`: goes on as a new conversation with questions 1 to N of this one (all of them
/// without N) and their answers; this one stays whole. The new one is stored, whole, when the
/// next message is sent, and remembers where it came from.
struct ForkCommand: SlashCommand {
    let names = ["fork"]
    let usage = "/fork [N]"
    let summary = "go on in a new conversation with questions 1 to N (default: all) of this one"

    func run(_ argument: String?, in context: REPLContext) async -> SlashCommandResult {
        let current = context.conversation
        let questions = current.questionIndices
        guard !questions.isEmpty else {
            context.note("nothing to fork yet")
            return .proceed
        }
        var count = questions.count
        if let argument {
            guard let index = context.questionIndex(argument, command: "/fork N") else { return .proceed }
            count = questions.firstIndex(of: index).map { $0 + 1 } ?? count
        }
        let end = count < questions.count ? questions[count] : current.messages.count
        let kept = current.messages.prefix(end).map { message in
            var copy = message
            copy.storageID = nil
            return copy
        }
        let origin = current.id.map {
            BranchPoint(conversationID: $0, messageID: current.messages[end - 1].storageID, turn: count)
        }
        context.conversation = Conversation(
            systemPrompt: current.systemPrompt, settings: current.settings, messages: kept, branchedFrom: origin,
            compaction: current.compaction)
        let source = current.id.map { " of \($0)" } ?? ""
        let what = count == 1 ? "question 1\(source) and its answer" : "questions 1–\(count)\(source) and their answers"
        context.note(
            "a new conversation with \(what); it is stored when you send the next message"
                + (current.id.map { " (/resume \($0) goes back)" } ?? ""))
        return .proceed
    }
}
