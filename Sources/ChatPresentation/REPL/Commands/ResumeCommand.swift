import ChatDomain

/// `/resume [ID]`: switch to a stored conversation; without ID, the most recent other one that
/// has an answer.
struct ResumeCommand: SlashCommand {
    let names = ["resume"]
    let usage = "/resume [ID]"
    let summary = "continue a stored conversation (default: the most recent other one)"

    func run(_ argument: String?, in context: REPLContext) async -> SlashCommandResult {
        guard let history = context.history else { return .proceed }
        let found: Result<Conversation, StorageError>
        if let id = argument {
            found = await history.load(id)
        } else {
            switch await history.list(limit: 2, includingUnanswered: false) {
            case .success(let listing):
                guard let other = listing.summaries.first(where: { $0.id != context.conversation.id }) else {
                    context.note("no other stored conversation")
                    return .proceed
                }
                found = await history.load(other.id)
            case .failure(let error):
                found = .failure(error)
            }
        }
        switch found {
        case .success(let stored):
            context.switchTo(stored)
            let resumed = context.conversation
            context.note(
                "resumed \(resumed.id ?? "") · \(resumed.title ?? "untitled") · \(Counted.text(resumed.turnCount, "turn"))"
            )
        case .failure(let error):
            context.failure(ErrorWording.line(for: error))
        }
        return .proceed
    }
}
