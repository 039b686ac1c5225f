import ChatDomain

/// `/resume [ID]`: switch to a stored conversation; without ID, the most recent other one that
/// has an answer.
struct ResumeCommand: SlashCommand {
    let names = ["resume"]
    let usage = "/resume [ID]"
    let summary = "continue a stored conversation (default: the most recent other one)"

    /// The ids of the conversations whose id begins with the word, or whose title holds it; each
    /// with its title.
    func completions(for argument: String, in context: CompletionContext) -> [String] {
        let word = CompletionContext.lastWord(of: argument).lowercased()
        return context.source.conversations().filter { conversation in
            conversation.id.hasPrefix(word) || (!word.isEmpty && conversation.title.lowercased().contains(word))
        }.map { $0.id + "\t" + $0.title }
    }

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
