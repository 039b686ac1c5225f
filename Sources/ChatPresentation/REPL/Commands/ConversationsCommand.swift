/// `/conversations`: the 20 most recently used stored conversations that have an answer.
struct ConversationsCommand: SlashCommand {
    let names = ["conversations"]
    let aliases = ["list"]
    let usage = "/conversations"
    let summary = "list stored conversations, most recently used first"

    func run(_ argument: String?, in context: REPLContext) async -> SlashCommandResult {
        guard let history = context.history else { return .proceed }
        switch await history.list(limit: 20, includingUnanswered: false) {
        case .success(let listing):
            if listing.summaries.isEmpty {
                context.note(
                    listing.unansweredLeftOut > 0
                        ? "no stored conversation has an answer" : "no stored conversations yet")
            } else {
                HistoryPresenter(output: context.parts.output, style: context.parts.outputStyle).list(
                    listing.summaries)
            }
            for line in ListingNotes.lines(for: listing, allFlag: "chat --list --all", limitFlag: "chat --list -n 0") {
                context.note(line)
            }
        case .failure(let error):
            context.failure(ErrorWording.line(for: error))
        }
        return .proceed
    }
}
